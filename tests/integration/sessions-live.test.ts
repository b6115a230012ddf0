import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refresh } from '../../server/auth/service.js';
import { hashToken } from '../../server/auth/session.js';
import { ABSOLUTE_SESSION_LIFETIME_MS, issueSession } from '../../server/auth/sessions-repo.js';
import { startSecondInstance, startTestServer, type TestServer } from '../helpers/server.js';
import { errorCode, rawSocket } from './raw-socket.js';

/**
 * Every call over a WebSocket is authorized against the live session, and
 * the sockets of a session that ends are closed at once, on every instance.
 */
const GRACE_MS = 400;
let server: TestServer;
let second: { url: string; stop(): Promise<void> };
const sockets: Awaited<ReturnType<typeof rawSocket>>[] = [];

beforeAll(async () => {
  server = await startTestServer({ WS_UNAUTHENTICATED_CLOSE_MS: String(GRACE_MS) });
  second = await startSecondInstance(server, { WS_UNAUTHENTICATED_CLOSE_MS: String(GRACE_MS) });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await second?.stop();
  await server?.stop();
});

async function open(baseUrl: string, token?: string) {
  const socket = await rawSocket(baseUrl, token);
  sockets.push(socket);
  return socket;
}

/** Closed by the server within `ms`, with the session-ended code. */
async function closedWithin(socket: Awaited<ReturnType<typeof rawSocket>>, ms: number) {
  const result = await Promise.race([socket.closed, new Promise<null>((r) => setTimeout(() => r(null), ms))]);
  expect(result, `the socket was not closed within ${ms} ms`).not.toBeNull();
  return result!;
}

describe('calls over a WebSocket', () => {
  it('are answered while the session lives, and refused the moment it is signed out; the socket is closed', async () => {
    const u = await server.user();
    const socket = await open(server.url, u.token);
    expect((await socket.call('auth.checkAuthorization')).result?.data?.json).toMatchObject({ data: { id: u.id } });
    expect(errorCode(await socket.call('weight.list', 'query', {}))).toBeNull();
    expect(errorCode(await socket.call('weight.add', 'mutation', { weight: 70.5, date: '2026-11-20' }))).toBeNull();

    const signedOutAt = Date.now();
    expect((await server.request('PUT', '/api/auth/sign-out', { token: u.token })).status).toBe(200);
    const closed = await closedWithin(socket, 2_000);
    expect(closed.code).toBe(4401);
    expect(closed.at - signedOutAt).toBeLessThan(2_000);
  });

  it('admin calls stop when the dietitian’s refresh token is reused (family revoked)', async () => {
    const admin = await server.user({ role: 'admin' });
    const socket = await open(server.url, admin.token);
    expect(errorCode(await socket.call('admin.overview.get'))).toBeNull();
    const renewed = await server.request('POST', '/api/auth/refresh-token', { body: { refreshToken: admin.refreshToken } });
    expect(renewed.status).toBe(200);
    // The old refresh token presented again: theft is assumed and the whole sign-in ends.
    expect((await server.request('POST', '/api/auth/refresh-token', { body: { refreshToken: admin.refreshToken } })).status).toBe(401);
    expect((await closedWithin(socket, 2_000)).code).toBe(4401);
    const again = await open(server.url, admin.token);
    expect(errorCode(await again.call('admin.overview.get'))).toBe('UNAUTHORIZED');
  });

  it('a deactivated client’s sockets are closed at once, every one of them', async () => {
    const [client, admin] = await Promise.all([server.user(), server.user({ role: 'admin' })]);
    const [a, b] = await Promise.all([open(server.url, client.token), open(second.url, client.token)]);
    expect(errorCode(await a.call('auth.checkAuthorization'))).toBeNull();
    expect(errorCode(await b.call('auth.checkAuthorization'))).toBeNull();
    const res = await server.request('POST', '/trpc/admin.clients.setActive', {
      token: admin.token,
      body: { json: { id: client.id, active: false } },
    });
    expect(res.status).toBe(200);
    await Promise.all([closedWithin(a, 2_000), closedWithin(b, 2_000)]);
  });

  it('a subscription on another instance ends the moment the session is revoked on this one', async () => {
    const u = await server.user();
    const socket = await open(second.url, u.token);
    const sub = socket.subscribe('feed.events');
    await expect.poll(() => socket.stream.some((m) => m.id === sub && m.result?.type === 'data'), { timeout: 5_000 }).toBe(true);
    const revokedAt = Date.now();
    expect((await server.request('PUT', '/api/auth/sign-out', { token: u.token })).status).toBe(200);
    const closed = await closedWithin(socket, 2_000);
    expect(closed.code).toBe(4401);
    expect(closed.at - revokedAt).toBeLessThan(2_000);
    // And the second instance refuses the token over HTTP as well (its cache was evicted).
    expect((await fetch(`${second.url}/api/auth/check-authorization`, { headers: { authorization: `Bearer ${u.token}` } })).status).toBe(
      401,
    );
  });

  it('a session that expires stops being served at its expiry: the socket closes then', async () => {
    const u = await server.user();
    const expiresAt = new Date(Date.now() + 1_500);
    await server.deps.db.updateTable('sessions').set({ expires_at: expiresAt }).where('token_hash', '=', hashToken(u.token)).execute();
    const socket = await open(server.url, u.token);
    expect(errorCode(await socket.call('auth.checkAuthorization'))).toBeNull();
    const closed = await closedWithin(socket, 5_000);
    expect(closed.code).toBe(4401);
    expect(closed.at).toBeGreaterThanOrEqual(expiresAt.getTime() - 50);
  });

  it.each([
    ['no token', undefined],
    ['an unknown token', 'not-a-real-session-token'],
  ])('a socket with %s gets nothing but UNAUTHORIZED, even for public calls, and is closed after a moment', async (_label, token) => {
    const socket = await open(server.url, token);
    for (const path of ['countries.list', 'auth.publicKey', 'auth.checkAuthorization']) {
      expect(errorCode(await socket.call(path)), path).toBe('UNAUTHORIZED');
    }
    const closed = await closedWithin(socket, GRACE_MS + 3_000);
    expect(closed.code).toBe(4401);
    expect(closed.at - socket.openedAt).toBeGreaterThanOrEqual(GRACE_MS - 50);
  });
});

describe('absolute session lifetime', () => {
  const DAY = 24 * 60 * 60 * 1000;

  it('refreshing keeps the sign-in’s start: it ends 30 days after the password was given, however often it is renewed', async () => {
    const u = await server.user();
    const start = new Date();
    const first = await issueSession(server.deps.db, u.id, undefined, start);
    const day29 = new Date(start.getTime() + 29 * DAY);
    const renewed = await refresh(server.deps, { ip: '127.0.0.1', userAgent: 'vitest' }, { refreshToken: first.refreshToken }, day29);
    const row = await server.deps.db
      .selectFrom('sessions')
      .select(['family_started_at', 'refresh_expires_at', 'expires_at'])
      .where('token_hash', '=', hashToken(renewed.data.token))
      .executeTakeFirstOrThrow();
    expect(row.family_started_at.getTime()).toBe(start.getTime());
    expect(row.refresh_expires_at.getTime()).toBe(start.getTime() + ABSOLUTE_SESSION_LIFETIME_MS);
    expect(row.expires_at.getTime()).toBeLessThanOrEqual(start.getTime() + ABSOLUTE_SESSION_LIFETIME_MS);

    const day31 = new Date(start.getTime() + 31 * DAY);
    await expect(
      refresh(server.deps, { ip: '127.0.0.1', userAgent: 'vitest' }, { refreshToken: renewed.data.refreshToken }, day31),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
