import type { Context as HonoContext } from 'hono';
import type { SessionUser } from '../auth/session.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import type { AppDeps } from '../deps.js';
import { serviceUnavailable } from '../errors.js';
import { type RequestMeta, requestMeta } from '../http/request-meta.js';
import { requestRecord } from '../observability/http.js';
import type { SocketSession } from '../realtime/socket-sessions.js';

export type Context = {
  deps: AppDeps;
  user: SessionUser | null;
  meta: RequestMeta;
  /**
   * Set on WebSocket connections, whose context lives as long as the socket:
   * every call re-checks the session through it (trpc/init.ts), so `user`
   * is never trusted from when the socket opened.
   */
  socket?: SocketSession;
};

/** The pure context: tests and createCaller build it directly. */
export function createContextInner(opts: {
  deps: AppDeps;
  user?: SessionUser | null;
  meta?: Partial<RequestMeta>;
  socket?: SocketSession;
}): Context {
  const meta = opts.meta;
  const context: Context = {
    deps: opts.deps,
    user: opts.user ?? null,
    // One shape for every context's meta (no spread of the caller's object, whose shape varies by transport).
    meta: {
      ip: meta?.ip ?? '127.0.0.1',
      userAgent: meta?.userAgent ?? '',
      requestId: meta?.requestId,
      transport: meta?.transport,
      record: meta?.record,
    },
  };
  if (opts.socket) context.socket = opts.socket;
  return context;
}

/** What an HTTP request (tRPC or REST) tells its context: address, agent, request id and record. */
export function httpRequestMeta(c: HonoContext, deps: AppDeps): RequestMeta {
  const record = requestRecord(c);
  const { ip, userAgent } = requestMeta(c, deps.config.trustProxy);
  return { ip, userAgent, requestId: record?.id, transport: 'http', record };
}

export function bearerToken(header: string | null | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}

/**
 * The one way a token becomes a user, for every HTTP request (tRPC and
 * REST), through the shared session cache (deps.sessions). An unknown or
 * expired token is no user, and the procedure refuses it; a database that
 * cannot be reached is an outage (503 with Retry-After), never "signed out".
 */
export async function createContextFromToken(deps: AppDeps, token: string | null, meta: Partial<RequestMeta>): Promise<Context> {
  let user: SessionUser | null = null;
  if (token) {
    try {
      user = await deps.sessions.resolve(token);
    } catch (err) {
      if (isDatabaseUnavailable(err)) throw serviceUnavailable(err);
      throw err;
    }
  }
  if (user && meta.record) meta.record.userId = user.id;
  return createContextInner({ deps, user, meta });
}

/**
 * For a running subscription: whether the caller's session is still live,
 * checked before each event. Over a WebSocket it is the socket's session,
 * which every revocation re-checks at once (no database round-trip per event).
 */
export function sessionStillLive(ctx: Context): () => boolean {
  const socket = ctx.socket;
  return socket ? () => socket.isLive() : () => true;
}

/**
 * The transport's part of a live subscription (realtime/live-channel.ts
 * LiveSubscriber): its signal, the session check before each event, and the
 * socket the channel writes to when the call came over a WebSocket.
 */
export function liveSubscriber(ctx: Context, signal: AbortSignal | undefined) {
  return { signal, stillAllowed: sessionStillLive(ctx), connection: ctx.socket?.connection };
}
