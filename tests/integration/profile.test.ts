import { TRPCClientError, createTRPCClient, httpLink } from '@trpc/client';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../server/trpc/root.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { AUTH_TEST_ENV, freshIp, fromIp } from '../helpers/sign-in.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(AUTH_TEST_ENV);
});
afterAll(() => server?.stop());

const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
const LAPTOP_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

function client(opts: { token?: string; userAgent?: string } = {}) {
  const ip = freshIp();
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${server.url}/trpc`,
        transformer: superjson,
        headers: () => ({
          ...fromIp(ip),
          ...(opts.userAgent ? { 'user-agent': opts.userAgent } : {}),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        }),
      }),
    ],
  });
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    if (err instanceof TRPCClientError) return err as TRPCClientError<AppRouter>;
    throw err;
  }
  throw new Error('expected the call to fail');
}

async function signInFrom(email: string, password: string, userAgent: string) {
  const res = await client({ userAgent }).auth.signIn.mutate({ email, password, role: 2 });
  return res.data;
}

describe('profile', () => {
  it('reads and saves the own profile, with clear messages for bad values', async () => {
    const user = await server.user({ firstName: 'Meena', lastName: 'Rao', heightM: 1.6, weightKg: 64 });
    const api = client({ token: user.token });
    expect(await api.profile.get.query()).toMatchObject({ firstName: 'Meena', lastName: 'Rao', heightM: 1.6, weightKg: 64, phone: null });

    const saved = await api.profile.update.mutate({
      firstName: ' Meenakshi ',
      lastName: 'Rao',
      phone: '+91 98765-43210',
      heightM: 1.62,
      weightKg: 63.5,
    });
    expect(saved.data).toMatchObject({ fullName: 'Meenakshi Rao', phone: '919876543210', heightM: 1.62, weightKg: 63.5 });
    const session = await api.auth.checkAuthorization.query();
    expect(session.data).toMatchObject({ fullName: 'Meenakshi Rao', height: 1.62, weight: 63.5 });

    const bad = await failure(api.profile.update.mutate({ firstName: '', phone: '123', heightM: 4 } as never));
    expect(bad.data?.httpStatus).toBe(400);
    expect((bad.data as { fieldErrors: Record<string, string[]> }).fieldErrors).toMatchObject({
      firstName: ['First name is required'],
      phone: ['Phone must have 10 to 13 digits'],
      heightM: ['Height must be between 0.5 and 2.6 m'],
    });
    // Clearing optional values is allowed.
    const cleared = await api.profile.update.mutate({ firstName: 'Meenakshi', phone: '', heightM: '' as never, weightKg: null });
    expect(cleared.data).toMatchObject({ phone: null, heightM: null, weightKg: null });
  });

  it('changes only the fields sent, over tRPC and REST alike, and refuses a change with no field', async () => {
    const user = await server.user({ firstName: 'Lata', lastName: 'Iyer', heightM: 1.58, weightKg: 60 });
    const api = client({ token: user.token });
    await api.profile.update.mutate({ firstName: 'Lata', phone: '9876543210' });

    const onlyWeight = await api.profile.update.mutate({ weightKg: 59.5 });
    expect(onlyWeight.data).toMatchObject({ firstName: 'Lata', lastName: 'Iyer', phone: '9876543210', heightM: 1.58, weightKg: 59.5 });

    const rest = await server.request('PUT', '/api/profile', { token: user.token, body: { lastName: 'Iyer-Rao' } });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 200,
      message: 'Your profile has been saved.',
      data: expect.objectContaining({ firstName: 'Lata', lastName: 'Iyer-Rao', phone: '9876543210', heightM: 1.58, weightKg: 59.5 }),
    });
    // Clearing is explicit: null or an empty value.
    const cleared = await server.request('PUT', '/api/profile', { token: user.token, body: { phone: '', heightM: null } });
    expect(cleared.body.data).toMatchObject({ lastName: 'Iyer-Rao', phone: null, heightM: null, weightKg: 59.5 });
    expect((await server.request('GET', '/api/profile', { token: user.token })).body.data).toMatchObject({
      fullName: 'Lata Iyer-Rao',
      weightKg: 59.5,
    });

    const empty = await server.request('PUT', '/api/profile', { token: user.token, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Send at least one of firstName, lastName, phone, heightM or weightKg to change.');
    expect((await failure(api.profile.update.mutate({}))).data?.httpStatus).toBe(400);
    expect((await server.request('PUT', '/api/profile', { body: { weightKg: 50 } })).status).toBe(401);
  });

  it('refuses without a session', async () => {
    const err = await failure(client().profile.get.query());
    expect(err.data?.httpStatus).toBe(401);
  });
});

describe('change password and devices', () => {
  it('changes the password, signs other devices out, keeps this one, and mails the owner', async () => {
    const user = await server.user({ firstName: 'Tara' });
    const phone = await signInFrom(user.email, user.password, PHONE_UA);
    const laptop = await signInFrom(user.email, user.password, LAPTOP_UA);
    const onPhone = client({ token: phone.token, userAgent: PHONE_UA });

    const devices = await onPhone.auth.devices.query();
    const names = devices.map((d) => `${d.browser}${d.current ? ' (this)' : ''}`);
    expect(names).toEqual(expect.arrayContaining(['Chrome on Android (this)', 'Firefox on Windows']));

    const wrong = await failure(
      onPhone.auth.changePassword.mutate({ currentPassword: 'not-it', newPassword: 'a-new-secret-1', confirmPassword: 'a-new-secret-1' }),
    );
    expect(wrong.data?.httpStatus).toBe(400);
    expect(wrong.message).toBe('Your current password is not correct.');

    const mismatch = await failure(
      onPhone.auth.changePassword.mutate({
        currentPassword: user.password,
        newPassword: 'a-new-secret-1',
        confirmPassword: 'a-new-secret-2',
      }),
    );
    expect((mismatch.data as { fieldErrors: Record<string, string[]> }).fieldErrors.confirmPassword).toEqual([
      'The two new passwords do not match',
    ]);

    const done = await onPhone.auth.changePassword.mutate({
      currentPassword: user.password,
      newPassword: 'a-new-secret-1',
      confirmPassword: 'a-new-secret-1',
    });
    expect(done.message).toBe('Your password has been changed. Other devices have been signed out.');

    expect((await failure(client({ token: laptop.token }).auth.checkAuthorization.query())).data?.httpStatus).toBe(401);
    expect((await onPhone.auth.checkAuthorization.query()).data.id).toBe(user.id);
    expect((await onPhone.auth.devices.query()).map((d) => d.browser)).toEqual(['Chrome on Android']);

    expect((await failure(client().auth.signIn.mutate({ email: user.email, password: user.password, role: 2 }))).data?.httpStatus).toBe(
      401,
    );
    await signInFrom(user.email, 'a-new-secret-1', LAPTOP_UA);

    await server.deps.mailer.drain();
    const mail = await server.deps.db
      .selectFrom('outbox')
      .select(['subject', 'body_text', 'body_html'])
      .where('to_address', '=', user.email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Your Poshan password was changed');
    expect(mail.body_text).toContain('from Chrome on Android');
    expect(mail.body_text).toMatch(/changed on \d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [ap]m/);
    expect(mail.body_html).toContain('Was this not you?');
  });

  it('lists two sign-ins from the same browser as two rows, each with its own sign-in and last-active time', async () => {
    const user = await server.user({ firstName: 'Noor' });
    const first = await signInFrom(user.email, user.password, LAPTOP_UA);
    const second = await signInFrom(user.email, user.password, LAPTOP_UA);
    const renewed = await client().auth.refresh.mutate({ refreshToken: first.refreshToken });
    const devices = (await client({ token: second.token }).auth.devices.query()).filter((d) => d.browser === 'Firefox on Windows');
    expect(devices).toHaveLength(2);
    expect(new Set(devices.map((d) => d.id)).size).toBe(2);
    const renewedRow = devices.find((d) => !d.current)!;
    expect(renewedRow.lastActiveAt.getTime()).toBeGreaterThan(renewedRow.signedInAt.getTime());
    expect(renewed.data.token).toBeTruthy();
  });

  it('lists the devices over REST with their last activity: a renewal moves it, ordinary requests write nothing', async () => {
    const user = await server.user({ firstName: 'Lata' });
    const phone = await signInFrom(user.email, user.password, PHONE_UA);
    const laptop = await signInFrom(user.email, user.password, LAPTOP_UA);
    const list = async (token: string) => {
      const res = await server.request('GET', '/api/auth/devices', { token });
      expect(res.status).toBe(200);
      return res.body.data as { id: string; browser: string; signedInAt: string; lastActiveAt: string; current: boolean }[];
    };
    const rowsOfUser = async () =>
      (await server.deps.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).length;

    const before = (await list(laptop.token)).find((d) => d.browser === 'Chrome on Android')!;
    expect(before.current).toBe(false);
    expect(new Date(before.lastActiveAt).getTime()).toBeGreaterThanOrEqual(new Date(before.signedInAt).getTime() - 1000);
    const rows = await rowsOfUser();

    // Requests with the phone's token are not recorded one by one.
    for (let i = 0; i < 3; i++) expect((await server.request('GET', '/api/profile', { token: phone.token })).status).toBe(200);
    const mine = await list(phone.token);
    expect(mine.find((d) => d.current)?.browser).toBe('Chrome on Android');
    expect(mine.find((d) => d.current)?.lastActiveAt).toBe(before.lastActiveAt);
    expect(await rowsOfUser()).toBe(rows);

    // A renewal is the device being in use: it moves the time, and the phone now lists first.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const renewed = await server.request('POST', '/api/auth/refresh-token', { body: { refreshToken: phone.refreshToken } });
    expect(renewed.status).toBe(200);
    const after = await list(laptop.token);
    expect(after[0]?.browser).toBe('Chrome on Android');
    expect(after[0]?.signedInAt).toBe(before.signedInAt);
    expect(new Date(after[0]!.lastActiveAt).getTime()).toBeGreaterThan(new Date(before.lastActiveAt).getTime());
    expect(after.find((d) => d.current)?.browser).toBe('Firefox on Windows');

    expect((await server.request('GET', '/api/auth/devices')).status).toBe(401);
  });

  it('signs one device out, and only the own devices', async () => {
    const user = await server.user({ firstName: 'Ravi' });
    const other = await server.user({ firstName: 'Sam' });
    const phone = await signInFrom(user.email, user.password, PHONE_UA);
    const laptop = await signInFrom(user.email, user.password, LAPTOP_UA);
    const onLaptop = client({ token: laptop.token });
    const phoneDevice = (await onLaptop.auth.devices.query()).find((d) => d.browser === 'Chrome on Android');
    expect(phoneDevice).toBeDefined();

    const stranger = await failure(client({ token: other.token }).auth.signOutDevice.mutate({ id: phoneDevice!.id }));
    expect(stranger.data?.httpStatus).toBe(404);
    expect((await failure(onLaptop.auth.signOutDevice.mutate({ id: 'nope' }))).data?.httpStatus).toBe(400);

    expect((await onLaptop.auth.signOutDevice.mutate({ id: phoneDevice!.id })).message).toBe('That device has been signed out.');
    expect((await failure(client({ token: phone.token }).auth.checkAuthorization.query())).data?.httpStatus).toBe(401);
    expect(
      (
        await client({ token: phone.refreshToken })
          .auth.refresh.mutate({ refreshToken: phone.refreshToken })
          .catch((e) => e)
      ).message,
    ).toMatch(/expired/);
  });
});
