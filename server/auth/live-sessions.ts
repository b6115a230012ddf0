import { sql } from 'kysely';
import type { Db, DbHandle } from '../db/index.js';
import type { Logger } from '../logger.js';
import { type SessionUser, findLiveSession, hashToken } from './session.js';
import { type SessionCache, createSessionCache } from './session-cache.js';

/**
 * The one session resolver of the process, used by HTTP, REST and every call
 * over a WebSocket. Lookups go through a short-lived cache; every change to a
 * user's sessions is announced with NOTIFY on SESSIONS_CHANNEL by the
 * repository function that makes it (sessions-repo.ts), and every instance
 * evicts that user's entries and re-checks their sockets when it hears it.
 */
export const SESSIONS_CHANNEL = 'poshan_sessions';

/** What travels through NOTIFY: a user id, nothing secret. */
type SessionsChanged = { userId: number };

/** The caches of the running instances in this process (one, except in tests that start several). */
const cachesInProcess = new Set<SessionCache>();

/**
 * Announces that these users' sessions changed. Call it in the transaction
 * that changed them: NOTIFY is delivered only when it commits. The caches in
 * this process forget the users at once as well, and cache nothing of theirs
 * until their own notification comes back: a request read between now and
 * the commit still sees the old rows, and must not keep a revoked session
 * cached after the caller has been told it ended.
 */
export async function notifySessionsChanged(db: Db, userIds: Iterable<number>): Promise<void> {
  for (const userId of new Set(userIds)) {
    for (const cache of cachesInProcess) cache.holdUser(userId);
    const payload: SessionsChanged = { userId };
    await sql`select pg_notify(${SESSIONS_CHANNEL}, ${JSON.stringify(payload)})`.execute(db);
  }
}

/** Who hears about changes: `userId` for one user, `null` for "anything may have changed" (after a reconnect). */
export type SessionsChangedListener = (userId: number | null) => void;

export interface LiveSessions {
  /** The live session of a bearer token, or null. Throws when the database cannot be reached: an outage is not a sign-out. */
  resolve(token: string): Promise<SessionUser | null>;
  /** Called after the cache has forgotten a user's sessions (WebSocket registries re-check their sockets). */
  onChange(listener: SessionsChangedListener): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createLiveSessions(handle: DbHandle, logger: Logger, opts: { ttlMs?: number; maxEntries?: number } = {}): LiveSessions {
  const cache = createSessionCache((hash) => findLiveSession(handle.db, hash), opts);
  const listeners = new Set<SessionsChangedListener>();
  let unlisten: (() => Promise<void>) | null = null;

  const announce = (userId: number | null) => {
    for (const listener of listeners) {
      try {
        listener(userId);
      } catch (err) {
        logger.error('session change listener failed', { error: (err as Error).message });
      }
    }
  };

  const onPayload = (raw: string) => {
    let userId: unknown;
    try {
      userId = (JSON.parse(raw) as SessionsChanged).userId;
    } catch {
      userId = undefined;
    }
    if (!Number.isSafeInteger(userId)) {
      logger.warn('unexpected session notification', { payload: raw.slice(0, 100) });
      return;
    }
    cache.forgetUser(userId as number);
    announce(userId as number);
  };

  /** Notifications sent while the LISTEN connection was down are lost: trust nothing cached. */
  const onReconnect = () => {
    cache.forgetAll();
    announce(null);
  };

  return {
    resolve: (token) => cache.get(hashToken(token)),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async start() {
      cachesInProcess.add(cache);
      unlisten ??= await handle.listen(SESSIONS_CHANNEL, onPayload, onReconnect);
    },
    async stop() {
      cachesInProcess.delete(cache);
      const u = unlisten;
      unlisten = null;
      listeners.clear();
      if (u) await u();
    },
  };
}
