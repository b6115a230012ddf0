import { createHash } from 'node:crypto';
import type { Db } from '../db/index.js';
import type { Role } from './roles.js';

export type SessionUser = {
  id: number;
  role: Role;
  email: string;
  firstName: string;
  lastName: string;
  fullName: string;
  sessionId: number;
};

/** Tokens are random and high-entropy, so a fast hash is enough to store them safely. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export const fullNameOf = (u: { first_name: string; last_name: string }) => `${u.first_name} ${u.last_name}`.trim();

export async function resolveSessionUser(db: Db, token: string): Promise<SessionUser | null> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id as session_id', 'u.id', 'u.role', 'u.email', 'u.first_name', 'u.last_name'])
    .where('s.token_hash', '=', hashToken(token))
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', new Date())
    .where('u.is_active', '=', true)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    role: row.role as Role,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    fullName: fullNameOf(row),
    sessionId: row.session_id,
  };
}

/** Whether a session (found earlier by its token) is still live: not revoked, not expired, its user active. */
export async function isSessionLive(db: Db, sessionId: number, now = new Date()): Promise<boolean> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select('s.id')
    .where('s.id', '=', sessionId)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where('u.is_active', '=', true)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * For long-lived connections (WebSocket subscriptions), whose context was
 * resolved once: re-checks the session at most every `everyMs`, so a signed-out,
 * revoked or expired session stops receiving data.
 */
export function liveSessionCheck(db: Db, sessionId: number, everyMs = 15_000): () => Promise<boolean> {
  let checkedAt = 0; // the first event checks
  let live = true;
  return async () => {
    if (!live) return false;
    if (Date.now() - checkedAt < everyMs) return true;
    live = await isSessionLive(db, sessionId);
    checkedAt = Date.now();
    return live;
  };
}
