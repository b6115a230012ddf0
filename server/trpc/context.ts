import type { AppDeps } from '../deps.js';
import { type SessionUser, resolveSessionUser } from '../auth/session.js';

export type RequestMeta = { ip: string; userAgent: string };

export type Context = {
  deps: AppDeps;
  user: SessionUser | null;
  meta: RequestMeta;
};

/** The pure context: tests and createCaller build it directly. */
export function createContextInner(opts: { deps: AppDeps; user?: SessionUser | null; meta?: Partial<RequestMeta> }): Context {
  return {
    deps: opts.deps,
    user: opts.user ?? null,
    meta: { ip: opts.meta?.ip ?? '127.0.0.1', userAgent: opts.meta?.userAgent ?? '' },
  };
}

export function bearerToken(header: string | null | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}

/**
 * The one way both transports (HTTP and WebSocket) turn a token into a user.
 * Never throws: an unknown or expired token is simply no user, and the
 * procedure refuses (a throwing WS context makes clients loop reconnecting).
 */
export async function createContextFromToken(deps: AppDeps, token: string | null, meta: Partial<RequestMeta>): Promise<Context> {
  let user: SessionUser | null = null;
  if (token) {
    try {
      user = await resolveSessionUser(deps.db, token);
    } catch (err) {
      deps.logger.warn('session lookup failed', { error: (err as Error).message });
    }
  }
  return createContextInner({ deps, user, meta });
}
