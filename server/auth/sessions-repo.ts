import { randomBytes, randomUUID } from 'node:crypto';
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
