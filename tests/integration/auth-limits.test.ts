import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { bucket, takeSlot } from '../../server/auth/rate-limit.js';
import { refresh } from '../../server/auth/service.js';
import { hashToken } from '../../server/auth/session.js';
import { RENEWED_ROWS_KEPT } from '../../server/auth/sessions-repo.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { AUTH_TEST_ENV, freshIp, fromIp, lastResetToken } from '../helpers/sign-in.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(AUTH_TEST_ENV);
});
afterAll(() => server?.stop());

const db = () => server.deps.db;
const signIn = (body: unknown, ip: string) => server.request('POST', '/api/auth/sign-in', { body, headers: fromIp(ip) });
const forgot = (email: string, ip: string) => server.request('POST', '/api/auth/forgot-password', { body: { email }, headers: fromIp(ip) });

/** Every answer 200 or 401 is one password evaluated; refusals (429, 400) evaluate none. */
const evaluated = (results: Array<{ status: number }>) => results.filter((r) => r.status === 200 || r.status === 401).length;

/** Moves a bucket's recorded attempts into the past, as if time had passed. */
const ageBucket = (name: string, ms: number) =>
  sql`update login_attempts set at = at - make_interval(secs => ${Math.round(ms / 1000)}) where bucket = ${name}`.execute(db());

describe('sign-in limits', () => {
  it('locks an account for 15 minutes after 10 failures, even with the right password, from any IP', { timeout: 120_000 }, async () => {
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
    await ageBucket(bucket.signInAccount(u.email), 15 * 60_000 - 90_000);
    const soon = await signIn({ email: u.email, password: u.password, role: 2 }, freshIp());
    expect(soon.status).toBe(429);
    const wait = Number(soon.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(90);
    expect(soon.body.message).toBe(`Too many sign-in attempts. Try again in ${wait > 60 ? '2 minutes' : '1 minute'}.`);
    await ageBucket(bucket.signInAccount(u.email), 120_000);
    expect((await signIn({ email: u.email, password: u.password, role: 2 }, freshIp())).status).toBe(200);
  });

  it('counts failures for unknown emails too, so the limit reveals nothing', async () => {
    const email = 'no-account@example.test';
    for (let i = 0; i < 10; i += 1) await signIn({ email, password: 'x', role: 2 }, freshIp());
    expect((await signIn({ email: email.toUpperCase(), password: 'x', role: 2 }, freshIp())).status).toBe(429);
  });

  it('clears an account’s failures after a successful sign-in', { timeout: 120_000 }, async () => {
    const u = await server.user();
    for (let i = 0; i < 9; i += 1) await signIn({ email: u.email, password: 'wrong-password', role: 2 }, freshIp());
    expect((await signIn({ email: u.email, password: u.password, role: 2 }, freshIp())).status).toBe(200);
    for (let i = 0; i < 9; i += 1) await signIn({ email: u.email, password: 'wrong-password', role: 2 }, freshIp());
    expect((await signIn({ email: u.email, password: u.password, role: 2 }, freshIp())).status).toBe(200);
  });

  it('allows 30 attempts per IP in 5 minutes, successful or not', { timeout: 120_000 }, async () => {
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
      .values({ bucket: 'signin:ip:203.0.113.250', at: new Date(Date.now() - 25 * 60 * 60_000) })
      .execute();
    // Pruning runs at most once a minute per process: take a slot two minutes from now.
    const limit = { kind: 'signin-ip' as const, bucket: 'signin:ip:203.0.113.251', max: 5, windowMs: 60_000 };
    await takeSlot(db(), 'sign-in attempts', [limit], new Date(Date.now() + 2 * 60_000));
    const old = await db()
      .selectFrom('login_attempts')
      .select('id')
      .where('at', '<', new Date(Date.now() - 24 * 60 * 60_000))
      .execute();
    expect(old).toEqual([]);
  });
});

describe('session renewal limits', () => {
  const renew = (refreshToken: string, ip = freshIp()) =>
    server.request('POST', '/api/auth/refresh-token', { body: { refreshToken }, headers: fromIp(ip) });
  const familyOf = async (refreshToken: string) =>
    (await db().selectFrom('sessions').select('family_id').where('refresh_hash', '=', hashToken(refreshToken)).executeTakeFirstOrThrow())
      .family_id;

  it('renews one sign-in at most 10 times in 15 minutes (429 with Retry-After); the refused token still works later', async () => {
    const u = await server.user();
    let refreshToken = u.refreshToken;
    const family = await familyOf(refreshToken);
    for (let i = 0; i < 10; i += 1) {
      const res = await renew(refreshToken);
      expect(res.status).toBe(200);
      refreshToken = res.body.data.refreshToken;
    }
    const refused = await renew(refreshToken);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ status: 429, message: 'Too many session renewals. Try again in 15 minutes.' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    // Another sign-in of the same person is counted on its own.
    expect((await renew((await server.user()).refreshToken)).status).toBe(200);

    await ageBucket(bucket.refreshSignIn(family), 15 * 60_000);
    expect((await renew(refreshToken)).status).toBe(200);
  });

  it('renews at most 120 sessions per IP in 15 minutes, whatever the sign-in', async () => {
    const ip = freshIp();
    await db()
      .insertInto('login_attempts')
      .values(Array.from({ length: 120 }, () => ({ bucket: bucket.refreshIp(ip), at: new Date() })))
      .execute();
    const u = await server.user();
    const refused = await renew(u.refreshToken, ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // Unknown tokens are counted too, so guessing costs the same.
    expect((await renew('not-a-real-refresh-token', ip)).status).toBe(429);
    expect((await renew(u.refreshToken)).status).toBe(200);
  });

  it('keeps a bounded number of rows per sign-in however often it is renewed, and still detects a reused token', async () => {
    const u = await server.user();
    const start = Date.now();
    let refreshToken = u.refreshToken;
    const given: string[] = [];
    // 40 renewals two minutes apart: within the limit, each older session token expired by the next.
    for (let i = 1; i <= 40; i += 1) {
      const renewed = await refresh(server.deps, { ip: freshIp(), userAgent: 'vitest' }, { refreshToken }, new Date(start + i * 120_000));
      given.push(refreshToken);
      refreshToken = renewed.data.refreshToken;
    }
    const rows = await db()
      .selectFrom('sessions')
      .select('id')
      .where('family_id', '=', await familyOf(refreshToken))
      .execute();
    expect(rows.length).toBeLessThanOrEqual(RENEWED_ROWS_KEPT + 1);
    // A recently renewed token presented again still ends the sign-in.
    await expect(
      refresh(server.deps, { ip: freshIp(), userAgent: 'vitest' }, { refreshToken: given.at(-3)! }, new Date(start + 41 * 120_000)),
    ).rejects.toMatchObject({ message: expect.stringMatching(/already renewed/) });
    await expect(
      refresh(server.deps, { ip: freshIp(), userAgent: 'vitest' }, { refreshToken }, new Date(start + 42 * 120_000)),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('limits that concurrent requests cannot overshoot', () => {
  it('evaluates at most 10 passwords for one account when 40 sign-ins arrive at once from 40 IPs', { timeout: 120_000 }, async () => {
    const u = await server.user();
    const attempts = Array.from({ length: 40 }, (_, i) =>
      signIn({ email: u.email, password: i === 39 ? u.password : `wrong-${i}`, role: 2 }, freshIp()),
    );
    const results = await Promise.all(attempts);
    expect(evaluated(results)).toBeLessThanOrEqual(10);
    expect(results.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(30);
    for (const refused of results.filter((r) => r.status === 429)) {
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body.message).toMatch(
        /^Too many sign-in attempts\. Try again in \d+ minutes?\.$|^Too many sign-in attempts are being checked/,
      );
    }
    const recorded = await db().selectFrom('login_attempts').select('id').where('bucket', '=', bucket.signInAccount(u.email)).execute();
    expect(recorded.length).toBeLessThanOrEqual(10);
  });

  it('counts at most 30 attempts for one IP when 45 sign-ins arrive at once', { timeout: 120_000 }, async () => {
    const ip = freshIp();
    const results = await Promise.all(
      Array.from({ length: 45 }, (_, i) => signIn({ email: `crowd-${i}-${ip}@example.test`, password: 'wrong-password', role: 2 }, ip)),
    );
    expect(evaluated(results)).toBeLessThanOrEqual(30);
    expect(results.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(15);
    const recorded = await db().selectFrom('login_attempts').select('id').where('bucket', '=', bucket.signInIp(ip)).execute();
    expect(recorded.length).toBe(30);
    const next = await signIn({ email: 'late@example.test', password: 'x', role: 2 }, ip);
    expect(next.status).toBe(429);
    expect(Number(next.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('mails at most 5 reset links when 20 forgot-password requests for one email arrive at once', async () => {
    const u = await server.user();
    const results = await Promise.all(Array.from({ length: 20 }, () => forgot(u.email, freshIp())));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(15);
    const mails = await db().selectFrom('outbox').select('id').where('to_address', '=', u.email).execute();
    expect(mails).toHaveLength(5);
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

describe('batches', () => {
  /** A tRPC HTTP batch, as httpBatchLink sends it: paths joined by commas, inputs keyed by index. */
  const batch = (paths: string[], inputs: unknown[], ip: string) =>
    server.request('POST', `/trpc/${paths.join(',')}?batch=1`, {
      body: Object.fromEntries(inputs.map((json, i) => [String(i), { json }])),
      headers: fromIp(ip),
    });

  it('refuses a batch of 60 sign-ins with 400 before any password is checked', async () => {
    const u = await server.user();
    const inputs = Array.from({ length: 60 }, (_, i) => ({ email: u.email, password: i === 59 ? u.password : `wrong-${i}`, role: 2 }));
    const res = await batch(Array(60).fill('auth.signIn'), inputs, freshIp());
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toContain('Incorrect email or password');
    // Had any of them run, the account would hold failures now.
    const failures = await db().selectFrom('login_attempts').select('id').where('bucket', '=', bucket.signInAccount(u.email)).execute();
    expect(failures).toEqual([]);
  });

  it('refuses any batch holding an auth call, even of two, with a message saying why', async () => {
    const u = await server.user();
    const res = await batch(['visit.track', 'auth.signIn'], [undefined, { email: u.email, password: u.password, role: 2 }], freshIp());
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('Sign-in, password and session calls cannot be batched');
    expect(await db().selectFrom('sessions').select('id').where('user_id', '=', u.id).execute()).toHaveLength(1);
  });

  it('queues no mail for a batch of 50 forgot-password calls', async () => {
    const u = await server.user();
    const res = await batch(Array(50).fill('auth.forgotPassword'), Array(50).fill({ email: u.email }), freshIp());
    expect(res.status).toBe(400);
    const mails = await db().selectFrom('outbox').select('id').where('to_address', '=', u.email).execute();
    expect(mails).toEqual([]);
  });

  it('caps other batches at 10 calls', async () => {
    const queries = (n: number) => server.request('GET', `/trpc/${Array(n).fill('countries.list').join(',')}?batch=1&input={}`);
    const ok = await queries(10);
    expect(ok.status).toBe(200);
    const tooBig = await queries(11);
    expect(tooBig.status).toBe(400);
    expect(JSON.stringify(tooBig.body)).toContain('Batch call exceeds maximum size');
  });
});

describe('a lockout cannot keep the owner out (known devices)', () => {
  it('lets the owner in from a device that signed in before while the account is locked for everyone else', {
    timeout: 120_000,
  }, async () => {
    const u = await server.user();
    const first = await signIn({ email: u.email, password: u.password, role: 2 }, freshIp());
    expect(first.status).toBe(200);
    const deviceToken: string = first.body.data.deviceToken;

    // An attacker fills the account's failure limit from many addresses.
    for (let i = 0; i < 10; i += 1) expect((await signIn({ email: u.email, password: `guess-${i}`, role: 2 }, freshIp())).status).toBe(401);
    expect((await signIn({ email: u.email, password: u.password, role: 2 }, freshIp())).status).toBe(429);

    // The owner's device has its own limit.
    const owner = await signIn({ email: u.email, password: u.password, role: 2, deviceToken }, freshIp());
    expect(owner.status).toBe(200);
    // ...and the attacker still faces the account's lock.
    expect((await signIn({ email: u.email, password: 'guess-again', role: 2 }, freshIp())).status).toBe(429);
  });

  it('limits a known device on its own, and ignores device tokens of another account or a forged one', { timeout: 120_000 }, async () => {
    const u = await server.user();
    const other = await server.user();
    const deviceToken: string = (await signIn({ email: u.email, password: u.password, role: 2 }, freshIp())).body.data.deviceToken;
    for (let i = 0; i < 10; i += 1) {
      expect((await signIn({ email: u.email, password: `typo-${i}`, role: 2, deviceToken }, freshIp())).status).toBe(401);
    }
    const locked = await signIn({ email: u.email, password: u.password, role: 2, deviceToken }, freshIp());
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    // The device's failures did not lock the account for other devices.
    expect((await signIn({ email: u.email, password: u.password, role: 2 }, freshIp())).status).toBe(200);

    // Another account's token, or a tampered one, counts as no device at all.
    const forged = `${deviceToken.slice(0, -2)}xx`;
    for (let i = 0; i < 10; i += 1)
      await signIn({ email: other.email, password: `nope-${i}`, role: 2, deviceToken: i % 2 ? forged : deviceToken }, freshIp());
    expect((await signIn({ email: other.email, password: other.password, role: 2, deviceToken }, freshIp())).status).toBe(429);
  });

  it('forgets every known device of an account when its password is reset', { timeout: 120_000 }, async () => {
    const u = await server.user();
    const deviceToken: string = (await signIn({ email: u.email, password: u.password, role: 2 }, freshIp())).body.data.deviceToken;
    expect((await forgot(u.email, freshIp())).status).toBe(200);
    const token = await lastResetToken(server, u.email);
    const newPassword = 'a-fresh-start-2026';
    expect((await server.request('POST', '/api/auth/reset-password', { body: { token, password: newPassword } })).status).toBe(200);
    for (let i = 0; i < 10; i += 1) await signIn({ email: u.email, password: `guess-${i}`, role: 2 }, freshIp());
    expect((await signIn({ email: u.email, password: newPassword, role: 2, deviceToken }, freshIp())).status).toBe(429);
  });
});
