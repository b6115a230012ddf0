import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveSessions } from '../../server/auth/live-sessions.js';
import { connectPostgres } from '../../server/db/connect.js';
import { isDatabaseUnavailable } from '../../server/db/unavailable.js';
import { createLogger } from '../../server/logger.js';
import { listen, type RunningServer } from '../../server/server.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * An instance whose database cannot be reached (connections refused) answers
 * every call that needs it with 503 and Retry-After, never 401 (which makes
 * browsers wipe the session) or 500. The full fault test with a real
 * Postgres that stops and starts under load is tests/integration/outage.test.ts.
 */
let server: TestServer;
let cut: RunningServer;
let user: TestUser;
const dead = connectPostgres('postgres://postgres@127.0.0.1:9/none', 2); // port 9 (discard) refuses connections

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'silent' });
  user = await server.user();
  // The same application, cut off from its database: every query fails to connect.
  const logger = createLogger('silent');
  const deadHandle = { ...dead, listening: () => false };
  cut = await listen(
    { ...server.deps, logger, db: dead.db, dbHandle: deadHandle, sessions: createLiveSessions(deadHandle, logger) },
    { port: 0, host: '127.0.0.1', serveClient: false },
  );
});
afterAll(async () => {
  await cut?.close();
  await dead.close();
  await server?.stop();
});

const get = (path: string, token?: string) =>
  fetch(`${cut.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }).then(async (res) => ({
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    cacheControl: res.headers.get('cache-control'),
    body: await res.json(),
  }));

describe('while the database cannot be reached', () => {
  it('recognises refused connections as an outage', async () => {
    const error = await dead.db
      .selectFrom('users')
      .select('id')
      .execute()
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isDatabaseUnavailable(new Error('duplicate key value violates unique constraint'))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(
      true,
    );
  });

  it('REST answers a signed-in call 503 with Retry-After, not 401', async () => {
    const res = await get('/api/auth/check-authorization', user.token);
    expect(res.status).toBe(503);
    expect(res.retryAfter).toBe('5');
    expect(res.body).toEqual({ status: 503, message: 'The service is briefly unavailable. Please try again in a moment.' });
  });

  it('tRPC answers a signed-in call SERVICE_UNAVAILABLE (503) with Retry-After, not UNAUTHORIZED', async () => {
    const res = await get('/trpc/auth.checkAuthorization', user.token);
    expect(res.status).toBe(503);
    expect(res.retryAfter).toBe('5');
    expect(res.body.error.json.data).toMatchObject({ code: 'SERVICE_UNAVAILABLE', httpStatus: 503, retryAfterSeconds: 5 });
  });

  it('a public call that needs the database is 503 too, not 500', async () => {
    const trpc = await get('/trpc/countries.list');
    expect(trpc.status).toBe(503);
    expect(trpc.retryAfter).toBe('5');
    const rest = await get('/api/countries');
    expect(rest.status).toBe(503);
    expect(rest.retryAfter).toBe('5');
  });

  it('a call without a token is still refused as 401 (nothing to look up)', async () => {
    expect((await get('/api/auth/check-authorization')).status).toBe(401);
  });

  it('/readyz is 503 with Retry-After', async () => {
    const res = await get('/readyz');
    expect(res.status).toBe(503);
    expect(res.retryAfter).toBe('5');
  });
});

describe('Cache-Control on API answers', () => {
  it('no-store on authenticated REST and tRPC answers, and on answers that carry tokens', async () => {
    for (const path of ['/api/auth/check-authorization', '/trpc/auth.checkAuthorization', '/api/updated-weights/get-updated-weights']) {
      const res = await server.request('GET', path, { token: user.token });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
    const signIn = await server.request('POST', '/api/auth/sign-in', { body: { email: user.email, password: user.password, role: 2 } });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get('cache-control')).toBe('no-store');
    // Errors too: a refused token's answer is not kept either.
    expect((await server.request('GET', '/api/auth/check-authorization', { token: 'nope' })).headers.get('cache-control')).toBe('no-store');
  });

  it('leaves the public, cacheable country list alone', async () => {
    const res = await server.request('GET', '/api/countries');
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=/);
  });
});
