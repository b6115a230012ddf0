import { randomBytes } from 'node:crypto';
import { createTRPCClient, createWSClient, httpLink, type TRPCClientError, wsLink } from '@trpc/client';
import superjson from 'superjson';
import WebSocket from 'ws';
import { issueSession } from '../../server/auth/sessions-repo.js';
import { ROLE } from '../../server/auth/roles.js';
import type { Db } from '../../server/db/index.js';
import type { FeedEvent } from '../../server/feed/schema.js';
import { describeError } from '../../server/errors.js';
import { createContextFromToken } from '../../server/trpc/context.js';
import { createCaller, type AppRouter } from '../../server/trpc/root.js';
import type { TestServer } from './server.js';

/**
 * Ways to call the API in tests: typed procedures over HTTP and WebSocket as
 * the web client calls them, and in-process callers as the HTTP adapter builds them.
 */

/** Typed procedure calls as a given token, exactly as the HTTP adapter builds the context (no HTTP round trip). */
export async function callerFor(server: TestServer, token?: string) {
  return createCaller(await createContextFromToken(server.deps, token ?? null, { ip: '127.0.0.1', userAgent: 'vitest' }));
}

/**
 * The error a call fails with, described as both transports describe it (so an
 * input error reads as its first field's message). Throws if the call succeeds.
 */
export async function failure(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; fieldErrors?: Record<string, string[]> }> {
  try {
    await promise;
  } catch (err) {
    const { code, message, fieldErrors } = describeError(err, true);
    return { code, message, fieldErrors };
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** Typed procedures over HTTP, as the web client calls them. */
export function httpClient(baseUrl: string, token?: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${baseUrl}/trpc`,
        transformer: superjson,
        headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
      }),
    ],
  });
}

/**
 * While `open` is false, connection attempts go nowhere (as when the network is down) and the client
 * keeps retrying; `failed` counts the attempts that have failed that way, so a test can wait for some.
 */
export type NetworkGate = { open: boolean; failed?: number };

/** A real WebSocket client (Node 20 has no global WebSocket, so `ws` is passed in). */
export function wsClient(baseUrl: string, token?: string, opts: { retryDelayMs?: number; network?: NetworkGate } = {}) {
  const network = opts.network ?? { open: true };
  class GatedWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      // Port 9 (discard) refuses connections: an attempt while the gate is shut fails like a dead network.
      super(network.open ? url : 'ws://127.0.0.1:9/', protocols);
      if (!network.open) this.once('close', () => (network.failed = (network.failed ?? 0) + 1));
    }
  }
  const socket = createWSClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/trpc`,
    WebSocket: GatedWebSocket as unknown as typeof globalThis.WebSocket,
    connectionParams: token ? { token } : null,
    retryDelayMs: () => opts.retryDelayMs ?? 100,
  });
  const client = createTRPCClient<AppRouter>({ links: [wsLink({ client: socket, transformer: superjson })] });
  return {
    client,
    socket,
    /** Drops the connection as a network failure would; the client reconnects by itself. */
    dropConnection() {
      socket.connection?.ws.close();
    },
    close: () => socket.close(),
  };
}

export type Received = { id: string; event: FeedEvent; at: number };

/** Everything one feed.events subscription receives, with ways to wait for it. */
export function recordFeed(client: ReturnType<typeof wsClient>['client'], lastEventId?: string | null) {
  const received: Received[] = [];
  const errors: TRPCClientError<AppRouter>[] = [];
  let notify = () => {};
  const changed = () => {
    const n = notify;
    notify = () => {};
    n();
  };
  const subscription = client.feed.events.subscribe(lastEventId === undefined ? undefined : { lastEventId }, {
    onData(tracked) {
      received.push({ id: tracked.id, event: tracked.data, at: performance.now() });
      changed();
    },
    onError(err) {
      errors.push(err as TRPCClientError<AppRouter>);
      changed();
    },
  });

  async function until<T>(check: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    while (true) {
      const found = check();
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0) {
        const seen = received.map((r) => `${r.id}:${r.event.kind}`).join(', ');
        throw new Error(
          `timed out waiting for ${what}; received [${seen}]${errors.length ? `; errors: ${errors.map((e) => e.message)}` : ''}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        notify = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  return {
    received,
    errors,
    unsubscribe: () => subscription.unsubscribe(),
    /** The first event (after `from`, an index) matching `match`. */
    next(match: (e: FeedEvent) => boolean, opts: { from?: number; timeoutMs?: number; what?: string } = {}) {
      return until(
        () => received.slice(opts.from ?? 0).find((r) => match(r.event)),
        opts.what ?? 'a matching feed event',
        opts.timeoutMs ?? 5000,
      );
    },
    /** Waits for the n-th 'ready' (1-based). */
    ready(n = 1, timeoutMs = 5000) {
      return until(() => received.filter((r) => r.event.kind === 'ready')[n - 1], `ready #${n}`, timeoutMs);
    },
    error(timeoutMs = 5000) {
      return until(() => errors[0], 'a subscription error', timeoutMs);
    },
  };
}

/**
 * Clients made straight in the database with a session: many users without
 * paying for password hashing (sign-in is tested elsewhere).
 */
export async function quickClients(db: Db, count: number, prefix = 'fan') {
  const tag = randomBytes(3).toString('hex');
  const rows = await db
    .insertInto('users')
    .values(
      Array.from({ length: count }, (_, i) => ({
        email: `${prefix}${i}-${tag}@example.test`,
        first_name: `${prefix[0]!.toUpperCase()}${prefix.slice(1)}${i}`,
        last_name: `Tester${i}`,
        role: ROLE.client,
      })),
    )
    .returning('id')
    .execute();
  return Promise.all(rows.map(async ({ id }) => ({ id, token: (await issueSession(db, id)).token })));
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
