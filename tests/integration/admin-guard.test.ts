import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../server/trpc/root.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { wsClient } from '../helpers/callers.js';

/**
 * Every admin procedure, found by walking the router (not listed by hand;
 * at run time `_def.procedures` is flat, keyed by dotted path):
 * a procedure added later is covered the moment it exists.
 */
type AnyProcedure = { _def: { type: 'query' | 'mutation' | 'subscription' } };
const everyAdminProcedure = Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>)
  .filter(([path]) => path.startsWith('admin.'))
  .map(([path, procedure]) => ({ path, type: procedure._def.type }));
/** Over HTTP; subscriptions (WebSocket only) are checked below over a socket. */
const adminProcedures = everyAdminProcedure.filter((p) => p.type !== 'subscription');
const adminSubscriptions = everyAdminProcedure.filter((p) => p.type === 'subscription');

let server: TestServer;
let client: TestUser;
let admin: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [client, admin] = await Promise.all([server.user(), server.user({ role: 'admin' })]);
});
afterAll(() => server?.stop());

/** One tRPC call over HTTP, the way the browser makes it (superjson envelope, no batching). */
function call(path: string, type: string, token: string | undefined, input: unknown = {}) {
  const envelope = JSON.stringify({ json: input });
  return type === 'query'
    ? server.request('GET', `/trpc/${path}?input=${encodeURIComponent(envelope)}`, { token })
    : server.request('POST', `/trpc/${path}`, { token, body: envelope, headers: { 'content-type': 'application/json' } });
}

describe('the admin role guard', () => {
  it('finds every area of the console in the router', () => {
    const areas = new Set(adminProcedures.map((p) => p.path.split('.')[1]));
    expect([...areas].sort()).toEqual([
      'appointments',
      'audit',
      'bookings',
      'calls',
      'clients',
      'dietPlans',
      'feed',
      'followUps',
      'journal',
      'messages',
      'outbox',
      'overview',
      'payments',
      'reviews',
      'subscriptions',
      'support',
    ]);
    expect(adminProcedures.length).toBeGreaterThanOrEqual(25);
    expect(adminSubscriptions.map((p) => p.path).sort()).toEqual([
      'admin.calls.seats',
      'admin.followUps.events',
      'admin.messages.inboxEvents',
      'admin.overview.events',
    ]);
  });

  it.each(adminSubscriptions)('$path (subscription) refuses a client and a visitor over the WebSocket', async ({ path }) => {
    for (const [token, message] of [
      [client.token, 'Only dietitians can do that.'],
      [undefined, 'Your session has expired. Please sign in again.'],
    ] as const) {
      const socket = wsClient(server.url, token);
      try {
        const procedure = path.split('.').reduce<any>((node, key) => node[key], socket.client);
        const error = await new Promise<Error>((resolve) => procedure.subscribe(undefined, { onError: resolve }));
        expect(error.message).toBe(message);
      } finally {
        socket.close();
      }
    }
  });

  it.each(adminProcedures)('$path ($type) answers 401 without a token', async ({ path, type }) => {
    const res = await call(path, type, undefined);
    expect(res.status).toBe(401);
    expect(res.body.error.json.message).toBe('Your session has expired. Please sign in again.');
  });

  it.each(adminProcedures)('$path ($type) answers 403 to a client', async ({ path, type }) => {
    const res = await call(path, type, client.token);
    expect(res.status).toBe(403);
    expect(res.body.error.json.message).toBe('Only dietitians can do that.');
  });

  it.each(adminProcedures)('$path ($type) lets an admin through to input validation', async ({ path, type }) => {
    // Input deliberately wrong: the answer must come from the procedure itself, not the guard.
    const res = await call(path, type, admin.token, { id: 'not-a-number', page: -1, clientId: 'x' });
    expect([200, 400]).toContain(res.status);
  });
});
