import type { NewUser } from '../db/schema.js';
import type { Db } from '../db/index.js';
import { ROLE } from '../auth/roles.js';

/** A client account by id, whether or not it is active (a dietitian still reaches a deactivated client's records). */
export function findClientAccount(db: Db, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'height_m', 'weight_kg'])
    .where('id', '=', id)
    .where('role', '=', ROLE.client)
    .executeTakeFirst();
}

export function setCurrentWeight(db: Db, id: number, weightKg: number | null) {
  return db.updateTable('users').set({ weight_kg: weightKg, updated_at: new Date() }).where('id', '=', id).execute();
}

export function findProfile(db: Db, id: number) {
  return db
    .selectFrom('users')
    .select(['email', 'first_name', 'last_name', 'phone', 'height_m', 'weight_kg'])
    .where('id', '=', id)
    .where('is_active', '=', true)
    .executeTakeFirst();
}

export function updateProfile(
  db: Db,
  id: number,
  values: { first_name: string; last_name: string; phone: string | null; height_m: number | null; weight_kg: number | null },
) {
  return db
    .updateTable('users')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', id)
    .where('is_active', '=', true)
    .returning(['email', 'first_name', 'last_name', 'phone', 'height_m', 'weight_kg'])
    .executeTakeFirst();
}

/** Emails are unique case-insensitively (users_email_lower_key); `email` is already lower case. */
export function findUserIdByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst();
}

export function insertUser(db: Db, user: NewUser) {
  return db.insertInto('users').values(user).returning(['id', 'email', 'first_name', 'last_name', 'role']).executeTakeFirstOrThrow();
}
