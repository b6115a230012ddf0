import { initTRPC } from '@trpc/server';
import superjson from 'superjson';
import { ROLE } from '../auth/roles.js';
import type { SessionUser } from '../auth/session.js';
import { isDiskFull } from '../db/disk-full.js';
import { AppError, RateLimitError, asOutage, describeError } from '../errors.js';
import type { SignInOutcome } from '../observability/metrics.js';
import { tracing } from '../observability/tracing.js';
import type { Context } from './context.js';
import { outputTransformer } from './output.js';

const t = initTRPC.context<Context>().create({
  // superjson both ways; a live subscription's first message tells the channel its id (output.ts).
  transformer: { input: superjson, output: outputTransformer },
  errorFormatter({ shape, error }) {
    const described = describeError(error);
    return {
      ...shape,
      message: described.message,
      data: {
        ...shape.data,
        stack: undefined,
        fieldErrors: described.fieldErrors ?? null,
        retryAfterSeconds: described.retryAfterSeconds ?? null,
        details: described.details ?? null,
      },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/**
 * Every procedure, on every transport (HTTP, WebSocket, REST adapters):
 * sign-in outcomes and rate-limit refusals for the metrics, and one log line
 * per WebSocket call (HTTP requests have the access log's line); a trace
 * span per call when tracing is on.
 */
const observed = t.middleware(async ({ ctx, path, type, next }) => {
  const start = ctx.meta.transport === 'ws' ? performance.now() : 0;
  const tracer = tracing();
  const result = tracer
    ? await tracer.inSpan(
        `trpc ${path}`,
        { 'rpc.system': 'trpc', 'rpc.method': path, 'rpc.trpc.type': type, 'poshan.transport': ctx.meta.transport ?? 'direct' },
        () => next(),
        (r) => (r.ok ? null : r.error.code),
      )
    : await next();
  const code = result.ok ? null : result.error.code;
  if (!result.ok && code === 'TOO_MANY_REQUESTS') {
    // A rate limit names what was full (signin-ip, support-email, hash-queue...); anything else counts under its procedure.
    const { error } = result;
    const kinds = error instanceof RateLimitError && error.limits.length > 0 ? error.limits : [path];
    for (const kind of kinds) ctx.deps.metrics.rateLimited(kind);
  }
  if (path === 'auth.signIn') ctx.deps.metrics.signIn(signInOutcome(code));
  if (ctx.meta.transport === 'ws' && type !== 'subscription') {
    ctx.deps.logger.access('info', 'ws call', {
      reqId: ctx.meta.requestId,
      route: path,
      type,
      code: code ?? 'OK',
      ms: Math.round((performance.now() - start) * 10) / 10,
      userId: ctx.user?.id,
    });
  }
  return result;
});

function signInOutcome(code: string | null): SignInOutcome {
  if (code === null) return 'success';
  if (code === 'UNAUTHORIZED') return 'rejected';
  if (code === 'TOO_MANY_REQUESTS') return 'rate_limited';
  return 'error';
}

const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

type Access = 'public' | 'signedIn' | 'admin';

/**
 * Who may call, in one middleware below `observed` (tRPC copies a call's
 * options several times per middleware level, so the guards share a level):
 * - a WebSocket's context lives as long as the socket, so each call over it
 *   (query, mutation or subscription) is authorized against the live session
 *   again, through the session cache; a socket without one gets nothing but
 *   UNAUTHORIZED, whatever it calls;
 * - signed-in procedures need a user, and admin ones a dietitian;
 * - a database outage anywhere below, these checks included, is a 503 with
 *   Retry-After (not a 500, and never a 401);
 * - a subscription over a socket holds one of the socket's places until it
 *   ends (socket-sessions.ts); one past the cap is refused, the socket stays.
 */
function guard<A extends Access>(access: A) {
  return t.middleware(async ({ ctx, type, signal, next }) => {
    let user = ctx.user;
    if (ctx.socket) {
      try {
        user = await ctx.socket.currentUser();
      } catch (err) {
        throw asOutage(err);
      }
      // A visitor's call page (a socket with a signed guest link, no session) may call public procedures only.
      if (!user && !(access === 'public' && ctx.socket.guest)) throw new AppError('UNAUTHORIZED', SESSION_EXPIRED);
    }
    if (access !== 'public' && !user) throw new AppError('UNAUTHORIZED', SESSION_EXPIRED);
    if (access === 'admin' && user?.role !== ROLE.admin) throw new AppError('FORBIDDEN', 'Only dietitians can do that.');
    const release = type === 'subscription' && ctx.socket ? ctx.socket.claimSubscription() : null;
    // The socket's adapter aborts the signal when the client stops the subscription, when it fails and when the socket closes.
    signal?.addEventListener('abort', () => release?.(), { once: true });
    const result = await next({ ctx: { user: user as A extends 'public' ? SessionUser | null : SessionUser } });
    if (!result.ok && result.error.code === 'INTERNAL_SERVER_ERROR') {
      release?.();
      const outage = asOutage(result.error.cause);
      if (isDiskFull(result.error.cause)) ctx.deps.dbHandle.writes.failedForDiskFull();
      if (outage !== result.error.cause) throw outage;
    }
    if (result.ok && type === 'mutation') ctx.deps.dbHandle.writes.succeeded();
    if (!release) return result;
    if (!result.ok || !isAsyncIterable(result.data)) {
      release();
      return result;
    }
    return { ...result, data: releasedAtEnd(result.data, release) };
  });
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** The same stream, which lets go of its place when it ends however it ends (done, failed, or returned early). */
async function* releasedAtEnd<T>(stream: AsyncIterable<T>, release: () => void): AsyncGenerator<T> {
  try {
    yield* stream;
  } finally {
    release();
  }
}

export const publicProcedure = t.procedure.use(observed).use(guard('public'));

/** Any signed-in user (client or admin). Clients are narrowed further by the guards in auth/guards.ts. */
export const authedProcedure = t.procedure.use(observed).use(guard('signedIn'));

/** A signed-in client (role 2). Admins may also call these and act for any client. */
export const clientProcedure = authedProcedure;

/** A signed-in dietitian (role 1). */
export const adminProcedure = t.procedure.use(observed).use(guard('admin'));
