import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSessionUser } from '../../server/auth/session.js';
import { findPlan, type PlanId, type PlanType } from '../../server/catalogue/plans.js';
import { AppError } from '../../server/errors.js';
import { assignSubscription } from '../../server/subscription/service.js';
import { createContextInner } from '../../server/trpc/context.js';
import { createCaller } from '../../server/trpc/root.js';
import { todayUtc } from '../../server/validation.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
let current: Awaited<ReturnType<typeof assignSubscription>>;
let older: Awaited<ReturnType<typeof assignSubscription>>;
let expired: Awaited<ReturnType<typeof assignSubscription>>;
let cancelled: Awaited<ReturnType<typeof assignSubscription>>;

const daysFromToday = (days: number) => new Date(Date.parse(`${todayUtc()}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob, admin] = await Promise.all([server.user(), server.user(), server.user({ role: 'admin' })]);
  const db = server.deps.db;
  const assign = (planType: PlanType, planId: PlanId, startDate: string, amountReceived: number) =>
    assignSubscription(db, { clientId: alice.id, planType, planId, startDate, amountReceived });
  expired = await assign('WL', 'tier-kickstart', '2024-01-01', 1849);
  older = await assign('DP', 'tier-thyroid', daysFromToday(-20), 2125);
  current = await assign('WL', 'tier-commitment', daysFromToday(-10), 9599);
  cancelled = await assign('WG', 'tier-lifestyle', daysFromToday(-5), 12749);
  await db.updateTable('subscriptions').set({ cancelled_at: new Date() }).where('id', '=', cancelled.id).execute();
});
afterAll(() => server?.stop());

const get = (token: string | undefined, query: string) => server.request('GET', `/api/client/get-subscriptions${query}`, { token });

describe('assignSubscription', () => {
  it('takes the name and list price from the catalogue and the end date from the plan length', () => {
    expect(expired).toEqual({
      id: expect.any(Number),
      planId_fk: { planType: 'WL', planMRP: 2171, planName: 'Weight Loss 1 Month', planId: 'tier-kickstart' },
      amountReceived: 1849,
      startDate: '2024-01-01',
      endDate: '2024-01-31',
      isExpired: true,
      pausedSince: null,
      status: 'ended',
      invoice: null,
    });
    expect(current.planId_fk).toEqual({
      planType: 'WL',
      planMRP: 11999,
      planName: findPlan('WL', 'tier-commitment')!.name,
      planId: 'tier-commitment',
    });
    expect(current.isExpired).toBe(false);
    // A "4 Weeks" plan lasts 28 days, the start day included.
    expect(findPlan('DP', 'tier-thyroid')!.duration).toBe('4 Weeks');
    expect(older.endDate).toBe(daysFromToday(-20 + 27));
  });

  it('refuses a plan the catalogue does not have for that type (400)', async () => {
    const attempt = assignSubscription(server.deps.db, {
      clientId: alice.id,
      planType: 'DP',
      planId: 'tier-kickstart',
      startDate: '2026-01-01',
      amountReceived: 100,
    });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'The DP catalogue has no plan tier-kickstart.',
      fieldErrors: { planId: ['The DP catalogue has no plan tier-kickstart.'] },
    });
  });

  it.each([
    [{ planId: 'tier-gold' }, 'Choose a plan from the catalogue'],
    [{ planType: 'XX' }, 'Plan type must be one of WL, WG, DP, LP'],
    [{ startDate: '2026-02-30' }, 'Use a real date in the form YYYY-MM-DD'],
    [{ amountReceived: -1 }, 'Amount received cannot be negative'],
    [{ amountReceived: 99.5 }, 'Amount received must be whole rupees'],
  ])('refuses %j with 400 "%s"', async (patch, message) => {
    const input = { clientId: alice.id, planType: 'WL', planId: 'tier-kickstart', startDate: '2026-01-01', amountReceived: 1849, ...patch };
    await expect(assignSubscription(server.deps.db, input as never)).rejects.toMatchObject({ code: 'BAD_REQUEST', message });
  });

  it('refuses a client that does not exist, or a dietitian (404)', async () => {
    for (const clientId of [999_999, admin.id]) {
      const attempt = assignSubscription(server.deps.db, {
        clientId,
        planType: 'WL',
        planId: 'tier-kickstart',
        startDate: '2026-01-01',
        amountReceived: 1849,
      });
      await expect(attempt).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'That client does not exist.' });
    }
  });
});

describe('GET /api/client/get-subscriptions', () => {
  it('with active=true lists only running subscriptions, newest first', async () => {
    const res = await get(alice.token, `?id=${alice.id}&active=true`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(200);
    expect(res.body.data).toEqual([current, older]);
    expect(res.body.data[0]).toEqual({
      id: current.id,
      planId_fk: { planType: 'WL', planMRP: 11999, planName: 'Weight Loss 6 Months', planId: 'tier-commitment' },
      amountReceived: 9599,
      startDate: daysFromToday(-10),
      endDate: current.endDate,
      isExpired: false,
      pausedSince: null,
      status: 'active',
      invoice: null,
    });
  });

  it('without active lists every subscription, running ones first, then expired and cancelled ones, marked', async () => {
    const res = await get(alice.token, '');
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { id: number }) => s.id)).toEqual([current.id, older.id, cancelled.id, expired.id]);
    expect(res.body.data.map((s: { isExpired: boolean }) => s.isExpired)).toEqual([false, false, true, true]);
    expect(res.body.data.map((s: { status: string }) => s.status)).toEqual(['active', 'active', 'ended', 'ended']);
    expect((await get(alice.token, '?active=false')).body.data).toHaveLength(4);
  });

  it('answers an empty list for a client without a plan', async () => {
    const res = await get(bob.token, `?id=${bob.id}&active=true`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('refuses another client’s id (403) and no token (401)', async () => {
    const res = await get(bob.token, `?id=${alice.id}&active=true`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ status: 403, message: 'You can only access your own data.' });
    expect((await get(undefined, `?id=${alice.id}&active=true`)).status).toBe(401);
  });

  it('lets a dietitian read any client, who must be named', async () => {
    const res = await get(admin.token, `?id=${alice.id}&active=true`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    const unnamed = await get(admin.token, '?active=true');
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.message).toBe('id is required');
    expect((await get(admin.token, '?id=999999')).status).toBe(404);
  });

  it.each([
    ['?active=yes', 'active must be true or false'],
    ['?id=abc', 'id must be a number'],
  ])('refuses %s with 400 "%s"', async (query, message) => {
    const res = await get(alice.token, query);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });
});

describe('subscription.active over tRPC', () => {
  it('takes a boolean and answers the same list', async () => {
    const user = await resolveSessionUser(server.deps.db, alice.token);
    const caller = createCaller(createContextInner({ deps: server.deps, user }));
    expect(await caller.subscription.active({ active: true })).toEqual([current, older]);
  });
});
