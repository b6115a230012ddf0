import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { LiveSessions } from '../auth/live-sessions.js';
import type { SessionUser } from '../auth/session.js';
import { AppError } from '../errors.js';
import type { LiveConnection } from './live-channel.js';

/** The close code a socket gets when its session ends (4000-4999 are the application's own). */
export const WS_SESSION_ENDED = 4401;
/** setTimeout's ceiling (~24.8 days); a session token lives far less. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The session of one socket, as the procedures see it: checked on every call. */
export interface SocketSession {
  /** The socket's live session, through the session cache (no database round-trip while cached); null once it ended. */
  currentUser(): Promise<SessionUser | null>;
  /** Synchronous check for streams that are already running (subscription events). */
  isLive(): boolean;
  /** Opened without a session by a visitor's call page with a signed guest link: only public procedures answer it. */
  readonly guest: boolean;
  /** The socket and its TCP stream, for the live channel's writer (live-channel.ts). */
  readonly connection: LiveConnection;
  /**
   * Takes one of the socket's subscription places (each live subscription
   * holds state and a share of every event's fan-out); call the returned
   * function when the subscription ends. Throws TOO_MANY_REQUESTS when the
   * socket holds `maxSubscriptions` already.
   */
  claimSubscription(): () => void;
}

/**
 * Every open socket and the session it authenticated with, indexed by user:
 * when a user's sessions change on any instance (NOTIFY), their sockets here
 * are re-checked and closed at once if their session is gone. A socket also
 * closes when its session token expires, and a socket that never had a live
 * session closes after `unauthenticatedCloseMs`.
 */
export function createSocketSessions(sessions: LiveSessions, opts: { unauthenticatedCloseMs: number; maxSubscriptions: number }) {
  const graceMs = opts.unauthenticatedCloseMs;
  const { maxSubscriptions } = opts;
  type Entry = { recheck(): Promise<void>; end(reason: string): void; dispose(): void };
  const everySocket = new Set<Entry>();
  const socketsOfUser = new Map<number, Set<Entry>>();

  const stopListening = sessions.onChange((userId) => {
    const affected = userId === null ? everySocket : socketsOfUser.get(userId);
    for (const entry of [...(affected ?? [])]) void entry.recheck();
  });

  function attach(ws: WebSocket, token: string | null, stream?: Duplex, guestUntil: Date | null = null): SocketSession {
    let user: SessionUser | null = null;
    let everLive = false;
    let ended = false;
    let expiryTimer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let subscriptions = 0;

    const unindex = () => {
      if (!user) return;
      const entries = socketsOfUser.get(user.id);
      entries?.delete(entry);
      if (entries?.size === 0) socketsOfUser.delete(user.id);
    };
    const forget = () => {
      clearTimeout(expiryTimer);
      clearTimeout(graceTimer);
      unindex();
      everySocket.delete(entry);
    };
    const entry: Entry = {
      dispose() {
        ended = true;
        forget();
      },
      end(reason) {
        if (ended) return;
        ended = true;
        forget();
        user = null;
        ws.close(WS_SESSION_ENDED, reason);
      },
      async recheck() {
        if (ended) return;
        try {
          adopt(token ? await sessions.resolve(token) : null);
        } catch {
          // The database is down: keep the socket; its calls answer 503 until it is back.
        }
      },
    };

    /** Takes the latest answer for this socket's token. */
    const adopt = (next: SessionUser | null) => {
      if (ended) return;
      if (next && user && next.sessionId === user.sessionId && next.expiresAt.getTime() === user.expiresAt.getTime()) return;
      unindex();
      clearTimeout(expiryTimer);
      user = next;
      if (!next) {
        // A session that ended (revoked, expired, user deactivated) closes its socket now; one that never began gets a moment
        // (a guest's socket, until its link's call has closed).
        if (everLive) entry.end('Your session has ended.');
        else if (guestUntil)
          graceTimer ??= setTimeout(
            () => entry.end('This call has closed.'),
            Math.min(Math.max(0, guestUntil.getTime() - Date.now()), MAX_TIMER_MS),
          );
        else graceTimer ??= setTimeout(() => entry.end('Please sign in first.'), graceMs);
        return;
      }
      everLive = true;
      clearTimeout(graceTimer);
      graceTimer = undefined;
      const entries = socketsOfUser.get(next.id) ?? new Set<Entry>();
      socketsOfUser.set(next.id, entries);
      entries.add(entry);
      const untilExpiry = Math.max(0, next.expiresAt.getTime() - Date.now());
      expiryTimer = setTimeout(() => entry.end('Your session has expired.'), Math.min(untilExpiry, MAX_TIMER_MS));
    };

    everySocket.add(entry);
    ws.once('close', () => entry.dispose());
    void entry.recheck();

    return {
      async currentUser() {
        if (ended || !token) {
          adopt(null);
          return null;
        }
        const found = await sessions.resolve(token);
        adopt(found);
        return ended ? null : found;
      },
      isLive: () =>
        !ended && (user !== null ? user.expiresAt.getTime() > Date.now() : guestUntil !== null && guestUntil.getTime() > Date.now()),
      guest: guestUntil !== null,
      connection: { ws, stream },
      claimSubscription() {
        if (subscriptions >= maxSubscriptions) {
          throw new AppError(
            'TOO_MANY_REQUESTS',
            `This connection already has ${maxSubscriptions} live updates open, the most one connection may hold. Reload the page to start again.`,
          );
        }
        subscriptions += 1;
        let held = true;
        return () => {
          if (!held) return;
          held = false;
          subscriptions -= 1;
        };
      },
    };
  }

  return {
    attach,
    /** Sockets per user (tests and metrics). */
    openSocketsOf: (userId: number) => socketsOfUser.get(userId)?.size ?? 0,
    /** Stops watching (the WebSocket server closes the sockets itself). */
    close() {
      stopListening();
      for (const entry of [...everySocket]) entry.dispose();
    },
  };
}
