import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROTATED_TOKEN_OVERLAP_MS } from '../../server/auth/sessions-repo.js';
import { hashToken } from '../../server/auth/session.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { HIDDEN_IN_OUTBOX } from '../../server/mail/mailer.js';
import { PASSWORD_TOO_COMMON } from '../../server/auth/schema.js';
import { AUTH_TEST_ENV, encryptWithPublishedKey, freshIp, fromIp, lastResetToken } from '../helpers/sign-in.js';

let server: TestServer;
let client: TestUser;
let admin: TestUser;

beforeAll(async () => {
  server = await startTestServer(AUTH_TEST_ENV);
  [client, admin] = await Promise.all([
    server.user({ firstName: 'Asha', lastName: 'Rao', heightM: 1.62, weightKg: 64.5 }),
    server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' }),
  ]);
});
afterAll(() => server?.stop());

const signIn = (body: unknown, ip = freshIp()) => server.request('POST', '/api/auth/sign-in', { body, headers: fromIp(ip) });
const check = (token?: string) => server.request('GET', '/api/auth/check-authorization', { token });
const refresh = (refreshToken: unknown) => server.request('POST', '/api/auth/refresh-token', { body: { refreshToken } });
const signOut = (token?: string, body?: unknown) => server.request('PUT', '/api/auth/sign-out', { token, body });
const forgot = (email: unknown, ip = freshIp()) =>
  server.request('POST', '/api/auth/forgot-password', { body: { email }, headers: fromIp(ip) });
const reset = (body: unknown) => server.request('POST', '/api/auth/reset-password', { body });

const db = () => server.deps.db;
/** Moves a session's expiry (of the session token or of its refresh token) into the past. */
const expireSession = (token: string, column: 'expires_at' | 'refresh_expires_at') =>
  db()
    .updateTable('sessions')
    .set({ [column]: new Date(Date.now() - 1000) })
    .where('token_hash', '=', hashToken(token))
    .execute();
const sessionRow = (token: string) =>
  db().selectFrom('sessions').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();

describe('POST /api/auth/sign-in', () => {
  it('signs a client in with a plain password and returns the session the login page stores', async () => {
    const res = await signIn({ email: client.email, password: client.password, role: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 200,
      message: 'Welcome back, Asha!',
      data: {
        token: expect.any(String),
        refreshToken: expect.any(String),
        id: client.id,
        fullName: 'Asha Rao',
        height: 1.62,
        weight: 64.5,
        role: 2,
        deviceToken: expect.stringMatching(/^kd1\./),
      },
    });
    const { token, refreshToken } = res.body.data;
    expect(Buffer.from(token, 'base64url').length).toBe(32);
    expect(Buffer.from(refreshToken, 'base64url').length).toBe(32);
    expect(token).not.toBe(refreshToken);
    // Only hashes are stored.
    const row = await sessionRow(token);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.refresh_hash).toBe(hashToken(refreshToken));
    const ttlMinutes = (row.expires_at.getTime() - Date.now()) / 60_000;
    expect(ttlMinutes).toBeGreaterThan(55);
    expect(ttlMinutes).toBeLessThanOrEqual(60);
    expect((row.refresh_expires_at.getTime() - Date.now()) / 86_400_000).toBeCloseTo(30, 0);
    expect((await check(token)).status).toBe(200);
  });

  it('signs in with a password encrypted by WebCrypto from the published key', async () => {
    const { value } = await encryptWithPublishedKey(server, client.password);
    const res = await signIn({ email: client.email, password: value, role: 2 });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(client.id);
  });

  it('signs an admin in with role 1, and reads email case- and space-insensitively', async () => {
    const res = await signIn({ email: `  ${admin.email.toUpperCase()} `, password: admin.password, role: '1' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: admin.id, fullName: 'Meera Iyer', role: 1, height: null, weight: null });
  });

  it.each([
    [{}, 'Email is required', 'email'],
    [{ email: '   ', password: 'x', role: 2 }, 'Email is required', 'email'],
    [{ email: 'a@b.c', role: 2 }, 'Password is required', 'password'],
    [{ email: 'a@b.c', password: '', role: 2 }, 'Password is required', 'password'],
    [{ email: 'a@b.c', password: 'x' }, 'Role is required', 'role'],
    [{ email: 'a@b.c', password: 'x', role: 3 }, 'Role must be 1 (dietitian) or 2 (client)', 'role'],
    [{ email: 'a@b.c', password: 'x', role: 'client' }, 'Role must be 1 (dietitian) or 2 (client)', 'role'],
  ])('refuses %j with 400 "%s"', async (body, message, field) => {
    const res = await signIn(body);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.data.fieldErrors[field]).toContain(message);
  });

  it('accepts an email without an @ (the spec forms have no format rule) and answers 401', async () => {
    const res = await signIn({ email: 'not-an-email', password: 'whatever', role: 2 });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Incorrect email or password.');
  });

  it('answers a wrong password and an unknown email with the same 401', async () => {
    const cases = [
      { email: client.email, password: 'wrong-password', role: 2 },
      { email: 'nobody@example.test', password: client.password, role: 2 },
      { email: admin.email, password: 'wrong-password', role: 2 },
    ];
    for (const body of cases) {
      const res = await signIn(body);
      expect(res.status, JSON.stringify(body)).toBe(401);
      expect(res.body).toEqual({ status: 401, message: 'Incorrect email or password.' });
    }
  });

  it('tells someone with the right password at the wrong door where to sign in', async () => {
    const atClientDoor = await signIn({ email: admin.email, password: admin.password, role: 2 });
    expect(atClientDoor.status).toBe(401);
    expect(atClientDoor.body.message).toBe('This sign-in is for clients. Dietitians sign in to the console at /admin.');
    const atConsoleDoor = await signIn({ email: client.email, password: client.password, role: 1 });
    expect(atConsoleDoor.status).toBe(401);
    expect(atConsoleDoor.body.message).toBe('This sign-in is for dietitians. Clients sign in at /login.');
  });

  it('refuses a deactivated account, and says so only to someone who knows the password', async () => {
    const gone = await server.user();
    await db().updateTable('users').set({ is_active: false }).where('id', '=', gone.id).execute();
    const right = await signIn({ email: gone.email, password: gone.password, role: 2 });
    expect(right.status).toBe(401);
    expect(right.body.message).toBe('This account is no longer active. Please contact us to restore it.');
    const wrong = await signIn({ email: gone.email, password: 'not-the-password', role: 2 });
    expect(wrong.body.message).toBe('Incorrect email or password.');
    // Its existing session stops working too.
    expect((await check(gone.token)).status).toBe(401);
  });
});

describe('GET /api/auth/check-authorization', () => {
  it('returns the signed-in user', async () => {
    const res = await check(client.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 200,
      message: 'You are signed in.',
      data: { id: client.id, fullName: 'Asha Rao', role: 2, height: 1.62, weight: 64.5 },
    });
  });

  it('answers 401 without a token, with an unknown token and with a malformed header', async () => {
    for (const res of [
      await check(undefined),
      await check('not-a-real-token'),
      await server.request('GET', '/api/auth/check-authorization', { headers: { authorization: `Token ${client.token}` } }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 401, message: 'Your session has expired. Please sign in again.' });
    }
  });

  it('answers 401 once the session token has expired', async () => {
    const u = await server.user();
    await expireSession(u.token, 'expires_at');
    expect((await check(u.token)).status).toBe(401);
  });
});

describe('POST /api/auth/refresh-token', () => {
  it('rotates both tokens within the same family', async () => {
    const u = await server.user({ firstName: 'Ravi', lastName: 'K' });
    const res = await refresh(u.refreshToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 200,
      message: 'Your session has been renewed.',
      data: { id: u.id, fullName: 'Ravi K', role: 2 },
    });
    const { token, refreshToken } = res.body.data;
    expect(token).not.toBe(u.token);
    expect(refreshToken).not.toBe(u.refreshToken);
    expect((await check(token)).status).toBe(200);
    const [oldRow, newRow] = await Promise.all([sessionRow(u.token), sessionRow(token)]);
    expect(newRow.family_id).toBe(oldRow.family_id);
    expect(oldRow.rotated_at).not.toBeNull();
    expect(newRow.rotated_at).toBeNull();
    // The old session token only lives on briefly for requests already in flight.
    expect(oldRow.expires_at.getTime()).toBeLessThanOrEqual(Date.now() + ROTATED_TOKEN_OVERLAP_MS);
    // And the new refresh token rotates again.
    const again = await refresh(refreshToken);
    expect(again.status).toBe(200);
  });

  it('revokes the whole family when an already rotated refresh token is presented again', async () => {
    const u = await server.user();
    const first = await refresh(u.refreshToken);
    expect(first.status).toBe(200);
    const second = await refresh(first.body.data.refreshToken);
    expect(second.status).toBe(200);

    const replay = await refresh(u.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body.message).toMatch(/already renewed .* signed it out everywhere/);

    expect((await check(second.body.data.token)).status).toBe(401);
    expect((await refresh(second.body.data.refreshToken)).status).toBe(401);
    const rows = await db().selectFrom('sessions').select('revoked_at').where('user_id', '=', u.id).execute();
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.revoked_at).not.toBeNull();
  });

  it('lets exactly one of two concurrent refreshes with the same token win, and treats the other as reuse', async () => {
    const u = await server.user();
    const results = await Promise.all([refresh(u.refreshToken), refresh(u.refreshToken)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 401]);
    const winner = results.find((r) => r.status === 200)!;
    // The loser's reuse revoked the family, the winner's new session included.
    expect((await check(winner.body.data.token)).status).toBe(401);
    const live = await db().selectFrom('sessions').select('id').where('user_id', '=', u.id).where('revoked_at', 'is', null).execute();
    expect(live).toEqual([]);
  });

  it('does not touch the user’s other sign-ins', async () => {
    const u = await server.user();
    const other = await signIn({ email: u.email, password: u.password, role: 2 });
    await refresh(u.refreshToken);
    await refresh(u.refreshToken);
    expect((await check(other.body.data.token)).status).toBe(200);
  });

  it('answers 401 for an unknown, expired or signed-out refresh token', async () => {
    expect((await refresh('no-such-refresh-token')).body).toEqual({
      status: 401,
      message: 'Your session has expired. Please sign in again.',
    });

    const expired = await server.user();
    await expireSession(expired.token, 'refresh_expires_at');
    expect((await refresh(expired.refreshToken)).status).toBe(401);

    const out = await server.user();
    expect((await signOut(out.token)).status).toBe(200);
    expect((await refresh(out.refreshToken)).status).toBe(401);
  });

  it.each([
    [{}, 'Refresh token is required'],
    [{ refreshToken: '' }, 'Refresh token is required'],
    [{ refreshToken: 42 }, 'Refresh token is required'],
  ])('refuses %j with 400 "%s"', async (body, message) => {
    const res = await server.request('POST', '/api/auth/refresh-token', { body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.data.fieldErrors.refreshToken).toContain(message);
  });
});

describe('PUT /api/auth/sign-out', () => {
  it('revokes the current sign-in (session and refresh token) and nothing else', async () => {
    const u = await server.user();
    const elsewhere = await signIn({ email: u.email, password: u.password, role: 2 });
    const res = await signOut(u.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 200, message: 'You have been logged out successfully' });
    expect((await check(u.token)).status).toBe(401);
    expect((await refresh(u.refreshToken)).status).toBe(401);
    expect((await check(elsewhere.body.data.token)).status).toBe(200);
    // Signing out twice: the token is no longer valid.
    expect((await signOut(u.token)).status).toBe(401);
  });

  it('revokes tokens issued by refresh in the same family', async () => {
    const u = await server.user();
    const renewed = await refresh(u.refreshToken);
    expect((await signOut(renewed.body.data.token)).status).toBe(200);
    expect((await refresh(renewed.body.data.refreshToken)).status).toBe(401);
  });

  it('answers 401 without a token or with a bad one', async () => {
    for (const res of [await signOut(undefined), await signOut('bad-token')]) {
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Your session has expired. Please sign in again.');
    }
  });

  it('accepts the refresh token when the session token has already expired', async () => {
    const u = await server.user();
    await expireSession(u.token, 'expires_at');
    const res = await signOut(u.token, { refreshToken: u.refreshToken });
    expect(res.status).toBe(200);
    expect((await refresh(u.refreshToken)).status).toBe(401);
  });
});

describe('forgot and reset password', () => {
  it('answers the same whether or not the email has an account, and mails a link only to a real one', async () => {
    const u = await server.user();
    const known = await forgot(u.email.toUpperCase());
    const unknown = await forgot('stranger@example.test');
    const expected = { status: 200, message: 'If an account exists for that email, we have sent a link to reset the password.' };
    expect(known.body).toEqual(expected);
    expect(unknown.body).toEqual(expected);
    expect(await lastResetToken(server, 'stranger@example.test')).toBeNull();

    await server.deps.mailer.drain(); // delivery runs after the answer (queue)
    const mail = await db().selectFrom('outbox').selectAll().where('to_address', '=', u.email).executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Reset your Poshan password');
    expect(mail.status).toBe('logged');
    expect(mail.body_text).toMatch(/^Hello Test,/);
    expect(mail.body_text).toContain('within the next 60 minutes');
    // The outbox, which every dietitian can read, never holds the link; only the recipient gets it.
    expect(mail.body_text).not.toContain('token=');
    expect(mail.body_text).toContain(HIDDEN_IN_OUTBOX);
    const delivered = server.mails.find((m) => m.outboxId === mail.id)!;
    expect(delivered.text).toMatch(/http:\/\/127\.0\.0\.1:\d+\/reset-password\?token=[\w-]{43}\n/);
    // The request is on the audit trail.
    const audit = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'auth.password_reset_requested')
      .where('entity_id', '=', u.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.summary).toBe(`A password reset link was mailed to ${u.email}`);
    // Only the hash is kept.
    const token = (await lastResetToken(server, u.email))!;
    const row = await db().selectFrom('password_resets').selectAll().where('user_id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(token));
    expect((row.expires_at.getTime() - Date.now()) / 60_000).toBeGreaterThan(55);
  });

  it('sets a new password once, signs the account out everywhere, and lets the new password in', async () => {
    const u = await server.user();
    await forgot(u.email);
    const token = (await lastResetToken(server, u.email))!;

    const res = await reset({ token, password: 'a-brand-new-password' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 200, message: 'Your password has been changed. Please sign in with your new password.' });

    expect((await check(u.token)).status).toBe(401);
    expect((await refresh(u.refreshToken)).status).toBe(401);
    expect((await signIn({ email: u.email, password: u.password, role: 2 })).status).toBe(401);
    expect((await signIn({ email: u.email, password: 'a-brand-new-password', role: 2 })).status).toBe(200);

    const again = await reset({ token, password: 'yet-another-password' });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This password reset link is invalid, already used or expired. Please ask for a new one.');
  });

  it('invalidates the other outstanding links once one is used', async () => {
    const u = await server.user();
    await forgot(u.email);
    const first = (await lastResetToken(server, u.email))!;
    await forgot(u.email);
    const second = (await lastResetToken(server, u.email))!;
    expect(first).not.toBe(second);
    expect((await reset({ token: second, password: 'password-number-2' })).status).toBe(200);
    expect((await reset({ token: first, password: 'password-number-1' })).status).toBe(400);
  });

  it('refuses an expired or unknown link', async () => {
    const u = await server.user();
    await forgot(u.email);
    const token = (await lastResetToken(server, u.email))!;
    await db()
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', u.id)
      .execute();
    expect((await reset({ token, password: 'long-enough-password' })).status).toBe(400);
    const unknown = await reset({ token: 'made-up-token', password: 'long-enough-password' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.fieldErrors.token).toHaveLength(1);
    expect((await signIn({ email: u.email, password: u.password, role: 2 })).status).toBe(200);
  });

  it.each([
    [{}, 'Email is required'],
    [{ email: '' }, 'Email is required'],
  ])('forgot-password refuses %j with 400 "%s"', async (body, message) => {
    const res = await server.request('POST', '/api/auth/forgot-password', { body, headers: fromIp(freshIp()) });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.data.fieldErrors.email).toContain(message);
  });

  it.each([
    [{ password: 'long-enough-password' }, 'The reset link is missing its token. Open the link from the email again.', 'token'],
    [{ token: 'abc' }, 'Password is required', 'password'],
    [{ token: 'abc', password: 'short' }, 'Password must be at least 10 characters', 'password'],
    [{ token: 'abc', password: 'password1234' }, PASSWORD_TOO_COMMON, 'password'],
    [{ token: 'abc', password: 'qwertyuiop12' }, PASSWORD_TOO_COMMON, 'password'],
  ])('reset-password refuses %j with 400 "%s"', async (body, message, field) => {
    const res = await reset(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.data.fieldErrors[field]).toContain(message);
  });
});
