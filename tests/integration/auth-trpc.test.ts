import { TRPCClientError, createTRPCClient, httpLink } from '@trpc/client';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../server/trpc/root.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { AUTH_TEST_ENV, encryptPassword, freshIp, fromIp, lastResetToken } from '../helpers/sign-in.js';

let server: TestServer;
let user: TestUser;

beforeAll(async () => {
  server = await startTestServer(AUTH_TEST_ENV);
  user = await server.user({ firstName: 'Kiran', lastName: 'Shah', heightM: 1.7, weightKg: 72 });
});
afterAll(() => server?.stop());

/** A typed client as a Node script or the web app would make one. */
function client(opts: { token?: string; ip?: string } = {}) {
  const ip = opts.ip ?? freshIp();
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${server.url}/trpc`,
        transformer: superjson,
        headers: () => ({ ...fromIp(ip), ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) }),
      }),
    ],
  });
}

async function trpcError(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    if (err instanceof TRPCClientError) return err as TRPCClientError<AppRouter>;
    throw err;
  }
  throw new Error('expected the call to fail');
}

describe('auth over tRPC', () => {
  it('signs in with an encrypted password, checks authorization, refreshes and signs out', async () => {
    const anonymous = client();
    const { kid, jwk } = await anonymous.auth.publicKey.query();
    const password = await encryptPassword(jwk, kid, user.password);

    const signedIn = await anonymous.auth.signIn.mutate({ email: user.email, password, role: 2 });
    expect(signedIn).toEqual({
      message: 'Welcome back, Kiran!',
      data: {
        token: expect.any(String),
        refreshToken: expect.any(String),
        id: user.id,
        fullName: 'Kiran Shah',
        height: 1.7,
        weight: 72,
        role: 2,
        deviceToken: expect.stringMatching(/^kd1\./),
      },
    });

    const me = await client({ token: signedIn.data.token }).auth.checkAuthorization.query();
    expect(me).toEqual({ message: 'You are signed in.', data: { id: user.id, fullName: 'Kiran Shah', role: 2, height: 1.7, weight: 72 } });

    const renewed = await anonymous.auth.refresh.mutate({ refreshToken: signedIn.data.refreshToken });
    expect(renewed.data.id).toBe(user.id);
    expect(renewed.data.token).not.toBe(signedIn.data.token);

    const out = await client({ token: renewed.data.token }).auth.signOut.mutate();
    expect(out).toEqual({ message: 'You have been logged out successfully' });
    const after = await trpcError(client({ token: renewed.data.token }).auth.checkAuthorization.query());
    expect(after.data?.code).toBe('UNAUTHORIZED');
  });

  it('refuses checkAuthorization without a token with UNAUTHORIZED (401)', async () => {
    const err = await trpcError(client().auth.checkAuthorization.query());
    expect(err.data?.code).toBe('UNAUTHORIZED');
    expect(err.data?.httpStatus).toBe(401);
    expect(err.message).toBe('Your session has expired. Please sign in again.');
  });

  it('reports validation errors with the field errors, and points a known user at the right door', async () => {
    const invalid = await trpcError(client().auth.signIn.mutate({ email: '', password: '', role: 2 }));
    expect(invalid.data?.httpStatus).toBe(400);
    expect(invalid.message).toBe('Email is required');
    expect(invalid.data?.fieldErrors).toEqual({ email: ['Email is required'], password: ['Password is required'] });

    const wrongRole = await trpcError(client().auth.signIn.mutate({ email: user.email, password: user.password, role: 1 }));
    expect(wrongRole.data?.httpStatus).toBe(401);
    expect(wrongRole.message).toBe('This sign-in is for dietitians. Clients sign in at /login.');
  });

  it('runs the forgot and reset password flow', async () => {
    const u = await server.user();
    const answer = await client().auth.forgotPassword.mutate({ email: u.email });
    expect(answer.message).toBe('If an account exists for that email, we have sent a link to reset the password.');
    const token = (await lastResetToken(server, u.email))!;
    expect(await client().auth.resetPassword.mutate({ token, password: 'new-password-123' })).toEqual({
      message: 'Your password has been changed. Please sign in with your new password.',
    });
    const signedIn = await client().auth.signIn.mutate({ email: u.email, password: 'new-password-123', role: 2 });
    expect(signedIn.data.id).toBe(u.id);
  });

  it('says when to retry after too many attempts', async () => {
    const ip = freshIp();
    const anonymous = client({ ip });
    for (let i = 0; i < 10; i += 1) await trpcError(anonymous.auth.signIn.mutate({ email: user.email, password: 'wrong', role: 2 }));
    const limited = await trpcError(anonymous.auth.signIn.mutate({ email: user.email, password: user.password, role: 2 }));
    expect(limited.data?.httpStatus).toBe(429);
    expect(limited.message).toBe('Too many sign-in attempts. Try again in 15 minutes.');
    expect(limited.data?.retryAfterSeconds).toBeGreaterThan(14 * 60);
  });
});
