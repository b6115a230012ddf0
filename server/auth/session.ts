import type { Db } from '../db/index.js';
import type { Role } from './roles.js';
import { fullNameOf, hashToken, type SessionUser } from './session-user.js';
import { findLiveSessionWithUser } from './sessions-repo.js';

export { fullNameOf, hashToken, type SessionUser } from './session-user.js';

/**
 * The live session of a token, straight from the database: not revoked, not
 * expired, its user active. Callers go through the cache in live-sessions.ts.
 */
export async function findLiveSession(db: Db, tokenHash: string, now = new Date()): Promise<SessionUser | null> {
  const row = await findLiveSessionWithUser(db, tokenHash, now);
  if (!row) return null;
  return {
    id: row.id,
    role: row.role as Role,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    fullName: fullNameOf(row),
    sessionId: row.session_id,
    expiresAt: row.expires_at,
  };
}

/** Uncached lookup by token (tests and one-off callers; requests use deps.sessions). */
export const resolveSessionUser = (db: Db, token: string) => findLiveSession(db, hashToken(token));
