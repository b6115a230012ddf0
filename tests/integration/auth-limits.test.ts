import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { bucket, recordAttempt } from '../../server/auth/rate-limit.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { AUTH_TEST_ENV, freshIp, fromIp, lastResetToken } from './auth-support.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(AUTH_TEST_ENV);
});
afterAll(() => server?.stop());

const db = () => server.deps.db;
const signIn = (body: unknown, ip: string) => server.request('POST', '/api/auth/sign-in', { body, headers: fromIp(ip) });
const forgot = (email: string, ip: string) => server.request('POST', '/api/auth/forgot-password', { body: { email }, headers: fromIp(ip) });

/** Moves a bucket's recorded attempts into the past, as if time had passed. */
const ageBucket = (name: string, ms: number) =>
  sql`update login_attempts set at = at - make_interval(secs => ${Math.round(ms / 1000)}) where bucket = ${name}`.execute(db());

describe('sign-in limits', () => {
  it('locks an account for 15 minutes after 10 failures, even with the right password, from any IP', async () => {
    const u = await server.user();
    for (let i = 0; i < 10; i += 1) {
      const res = await signIn({ email: u.email, password: `wrong-${i}`, role: 2 }, freshIp());
      expect(res.status).toBe(401);
    }
    const locked = await signIn({ email: u.email, password: u.password, role: 2 }, freshIp());
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ status: 429, message: 'Too many sign-in attempts. Try again in 15 minutes.' });
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    // Other accounts are not affected.
    const other = await server.user();
    expect((await signIn({ email: other.email, password: other.password, role: 2 }, freshIp())).status).toBe(200);

    // Once the oldest failure leaves the window, the account may try again.
    await ageBucket(bucket.signInFailures(u.email), 15 * 60_000 - 90_000);
    const soon = await signIn({ email: u.email, password: u.password, role: 2 }, freshIp());
    expect(soon.status).toBe(429);
    const wait = Number(soon.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(90);
    expect(soon.body.message).toBe(`Too many sign-in attempts. Try again in ${wait > 60 ? '2 minutes' : '1 minute'}.`);
    await ageBucket(bucket.signInFailures(u.email), 120_000);
    expect((await signIn({ email: u.email, password: u.password, role: 2 }, freshIp())).status).toBe(200);
  });

  it('counts failures for unknown emails too, so the limit reveals nothing', async () => {
    const email = 'no-account@example.test';
    for (let i = 0; i < 10; i += 1) await signIn({ email, password: 'x', role: 2 }, freshIp());
    expect((await signIn({ email: email.toUpperCase(), password: 'x', role: 2 }, freshIp())).status).toBe(429);
  });

  it('clears an account’s failures after a successful sign-in', async () => {
    const u = await server.user();
    for (let i = 0; i < 9; i += 1) await signIn({ email: u.email, password: 'wrong-password', role: 2 }, freshIp());
    expect((await signIn({ email: u.email, password: u.password, role: 2 }, freshIp())).status).toBe(200);
    for (let i = 0; i < 9; i += 1) await signIn({ email: u.email, password: 'wrong-password', role: 2 }, freshIp());
    expect((await signIn({ email: u.email, password: u.password, role: 2 }, freshIp())).status).toBe(200);
  });

  it('allows 30 attempts per IP in 5 minutes, successful or not', async () => {
    const ip = freshIp();
    const u = await server.user();
    const results = [];
    for (let i = 0; i < 30; i += 1) {
      // Mostly successes, so the per-account limit never applies.
      const body =
        i % 5 === 0 ? { email: `someone-${i}@example.test`, password: 'x', role: 2 } : { email: u.email, password: u.password, role: 2 };
      results.push((await signIn(body, ip)).status);
    }
    expect(results.filter((s) => s === 429)).toEqual([]);
    const blocked = await signIn({ email: u.email, password: u.password, role: 2 }, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Too many sign-in attempts. Try again in 5 minutes.');
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(300);
    // Validation errors and blocked attempts are not counted; another IP is unaffected.
    expect((await signIn({ email: u.email, password: u.password, role: 2 }, freshIp())).status).toBe(200);
    await ageBucket(bucket.signInIp(ip), 5 * 60_000);
    expect((await signIn({ email: u.email, password: u.password, role: 2 }, ip)).status).toBe(200);
  });

  it('prunes attempts older than every window', async () => {
    await db()
      .insertInto('login_attempts')
      .values({ bucket: 'signin:ip:203.0.113.250', at: new Date(Date.now() - 2 * 60 * 60_000) })
      .execute();
    // Pruning runs at most once a minute per process: record an attempt two minutes from now.
    await recordAttempt(db(), ['signin:ip:203.0.113.251'], new Date(Date.now() + 2 * 60_000));
    const old = await db()
      .selectFrom('login_attempts')
      .select('id')
      .where('at', '<', new Date(Date.now() - 60 * 60_000))
      .execute();
    expect(old).toEqual([]);
  });
});

describe('forgot-password limits', () => {
  it('sends at most 5 reset mails per email in 15 minutes, whichever IP asks', async () => {
    const u = await server.user();
    for (let i = 0; i < 5; i += 1) expect((await forgot(u.email, freshIp())).status).toBe(200);
    const blocked = await forgot(u.email, freshIp());
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Too many password reset requests. Try again in 15 minutes.');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    const mails = await db().selectFrom('outbox').select('id').where('to_address', '=', u.email).execute();
    expect(mails).toHaveLength(5);
    expect(await lastResetToken(server, u.email)).not.toBeNull();
  });

  it('takes at most 5 requests per IP in 15 minutes, for any emails', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i += 1) expect((await forgot(`person-${i}@example.test`, ip)).status).toBe(200);
    expect((await forgot('person-5@example.test', ip)).status).toBe(429);
    expect((await forgot('person-5@example.test', freshIp())).status).toBe(200);
  });
});
