import type { DbHandle } from '../db/index.js';
import type { Logger } from '../logger.js';
import { findLiveSession, hashToken, type SessionUser } from './session.js';
import { createSessionCache } from './session-cache.js';
import { SESSIONS_CHANNEL, type SessionsChanged, sessionHoldersInProcess } from './sessions-repo.js';

/**
 * The one session resolver of the process, used by HTTP, REST and every call
 * over a WebSocket. Lookups go through a short-lived cache; every change to a
 * user's sessions is announced with NOTIFY on SESSIONS_CHANNEL by the
 * repository function that makes it (sessions-repo.ts, notifySessionsChanged),
 * and every instance evicts that user's entries and re-checks their sockets
 * when it hears it.
 */

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
      sessionHoldersInProcess.add(cache);
      unlisten ??= await handle.listen(SESSIONS_CHANNEL, onPayload, onReconnect);
    },
    async stop() {
      sessionHoldersInProcess.delete(cache);
      const u = unlisten;
      unlisten = null;
      listeners.clear();
      if (u) await u();
    },
  };
}
