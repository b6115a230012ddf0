import type { Db } from '../db/index.js';
import { hashToken } from './session.js';

const userColumns = ['id', 'email', 'first_name', 'last_name', 'role', 'height_m', 'weight_kg', 'is_active'] as const;

/** Emails are unique case-insensitively (users_email_lower_key). */
export function findUserByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select([...userColumns, 'password_hash'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

export function findActiveUserById(db: Db, id: number) {
  return db.selectFrom('users').select(userColumns).where('id', '=', id).where('is_active', '=', true).executeTakeFirst();
}

export function setPasswordHash(db: Db, userId: number, passwordHash: string, now = new Date()) {
  return db.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', userId).execute();
}

export function insertPasswordReset(db: Db, userId: number, token: string, expiresAt: Date) {
  return db
    .insertInto('password_resets')
    .values({ token_hash: hashToken(token), user_id: userId, expires_at: expiresAt })
    .execute();
}

/** A reset link that can still be used, with its (active) user. */
export function findUsablePasswordReset(db: Db, token: string, now = new Date()) {
  return db
    .selectFrom('password_resets as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.user_id', 'u.email'])
    .where('r.token_hash', '=', hashToken(token))
    .where('r.used_at', 'is', null)
    .where('r.expires_at', '>', now)
    .where('u.is_active', '=', true)
    .executeTakeFirst();
}

/** Uses a reset link: one UPDATE, so of two concurrent uses only one succeeds. */
export function consumePasswordReset(db: Db, token: string, now = new Date()) {
  return db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
}

/** After a reset, the user's other outstanding links stop working too. */
export function usePendingPasswordResets(db: Db, userId: number, now = new Date()) {
  return db.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}
