import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { hashToken } from './session.js';

export const SESSION_TTL_MS = 60 * 60 * 1000; // 1 hour
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000; // 30 days

/** 256 bits of randomness, URL-safe. */
export const newToken = () => randomBytes(32).toString('base64url');

export type IssuedSession = { sessionId: number; token: string; refreshToken: string; expiresAt: Date; refreshExpiresAt: Date };

/** Starts a session (a new family unless one is given, as on refresh). Only hashes are stored. */
export async function issueSession(db: Db, userId: number, familyId: string = randomUUID(), now = new Date()): Promise<IssuedSession> {
  const token = newToken();
  const refreshToken = newToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const refreshExpiresAt = new Date(now.getTime() + REFRESH_TTL_MS);
  const row = await db
    .insertInto('sessions')
    .values({
      user_id: userId,
      family_id: familyId,
      token_hash: hashToken(token),
      refresh_hash: hashToken(refreshToken),
      expires_at: expiresAt,
      refresh_expires_at: refreshExpiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { sessionId: row.id, token, refreshToken, expiresAt, refreshExpiresAt };
}

/**
 * After a refresh the old session token keeps working this long, so requests
 * already in flight with it are not refused; then only the new one works.
 */
export const ROTATED_TOKEN_OVERLAP_MS = 30_000;

/**
 * Claims a refresh token for rotation: marks its row rotated, only if it is
 * live. A single UPDATE, so of two concurrent claims exactly one gets the row
 * (Postgres re-checks the WHERE after the first commits); the other gets
 * nothing and sees the token as already rotated.
 */
export function claimRefreshToken(db: Db, refreshToken: string, now = new Date()) {
  const overlapEnds = new Date(now.getTime() + ROTATED_TOKEN_OVERLAP_MS);
  return db
    .updateTable('sessions')
    .set({ rotated_at: now, expires_at: sql<Date>`least(expires_at, ${overlapEnds})` })
    .where('refresh_hash', '=', hashToken(refreshToken))
    .where('rotated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('refresh_expires_at', '>', now)
    .returning(['id', 'user_id', 'family_id'])
    .executeTakeFirst();
}

export function findSessionByRefreshToken(db: Db, refreshToken: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'family_id', 'rotated_at', 'revoked_at', 'refresh_expires_at'])
    .where('refresh_hash', '=', hashToken(refreshToken))
    .executeTakeFirst();
}

export function familyOfSession(db: Db, sessionId: number) {
  return db.selectFrom('sessions').select('family_id').where('id', '=', sessionId).executeTakeFirst();
}

/** Ends every session of a sign-in (the family shares one id across rotations). */
export function revokeFamily(db: Db, familyId: string, now = new Date()) {
  return db.updateTable('sessions').set({ revoked_at: now }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
}

export function revokeAllSessionsOfUser(db: Db, userId: number, now = new Date()) {
  return db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

/** Rows whose refresh token has long expired can no longer do anything. */
export function deleteExpiredSessions(db: Db, now = new Date()) {
  return db
    .deleteFrom('sessions')
    .where('refresh_expires_at', '<', new Date(now.getTime() - 24 * 60 * 60 * 1000))
    .execute();
}
