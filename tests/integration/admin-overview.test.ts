import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayUtc } from '../../server/validation.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { callerFor } from './admin-callers.js';

let server: TestServer;
let admin: TestUser;
let console_: Awaited<ReturnType<typeof callerFor>>;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.user({ role: 'admin' });
  console_ = await callerFor(server, admin.token);
});
afterAll(() => server?.stop());

describe('admin.overview.get', () => {
  it('counts what needs attention and charts the last 30 days of visits', async () => {
    const empty = await console_.admin.overview.get();
    expect(empty).toMatchObject({
      newBookings: 0,
      openSupportRequests: 0,
      activeSubscriptions: 0,
      activeClients: 0,
      rating: { average: null, count: 0 },
    });
    expect(empty.visits).toHaveLength(30);
    expect(empty.visits.at(-1)).toEqual({ day: todayUtc(), visits: 0, visitors: 0 });

    const visitor = await callerFor(server);
    await visitor.consultation.book({
      name: 'A B',
      email: 'ab@example.test',
      gender: 1,
      age: 40,
      height: '5.8',
      weight: 80,
      state: 'Goa',
      contact: '9876543210',
      country: 356,
      isMedicalCondition: false,
    });
    await visitor.support.create({ name: 'C', email: 'c@example.test', message: 'Hello' });
    const [a, b] = await Promise.all([server.user(), server.user()]);
    await (await callerFor(server, a.token)).rating.add({ reviewStar: 5 });
    await (await callerFor(server, b.token)).rating.add({ reviewStar: 3.5 });
    await console_.admin.subscriptions.assign({
      clientId: a.id,
      planType: 'DP',
      planId: 'tier-thyroid',
      startDate: todayUtc(),
      amountReceived: 2125,
    });
    // Two visits from one browser, one from another; and one from 40 days ago (outside the chart).
    for (const ua of ['browser-1', 'browser-1', 'browser-2']) {
      await server.request('GET', '/api/client/track-visit', { headers: { 'user-agent': ua } });
    }
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
    await server.deps.db.insertInto('visits').values({ day: old, visitor_hash: 'x' }).execute();

    const now = await console_.admin.overview.get();
    expect(now).toMatchObject({
      newBookings: 1,
      openSupportRequests: 1,
      activeSubscriptions: 1,
      activeClients: 2,
      rating: { average: 4.3, count: 2 },
    });
    expect(now.visits.at(-1)).toEqual({ day: todayUtc(), visits: 3, visitors: 2 });
    expect(now.visits.reduce((sum, d) => sum + d.visits, 0)).toBe(3);
    expect(now.visits[0]!.day < now.visits[29]!.day).toBe(true);
  });
});

describe('outbox and audit trail', () => {
  it('pages the outbox newest first and filters by recipient', async () => {
    for (const email of ['one@example.test', 'two@example.test', 'three@example.test']) {
      await console_.admin.clients.create({ firstName: 'Mail', lastName: 'Test', email });
    }
    const page = await console_.admin.outbox.list({ pageSize: 10 });
    expect(page.items[0]).toMatchObject({ to: 'three@example.test', subject: 'Welcome to Poshan: set your password', status: 'logged' });
    expect(page.items[0]!.body).toContain('/reset-password?token=');
    const two = await console_.admin.outbox.list({ to: 'TWO@example.test' });
    expect(two.items.map((m) => m.to)).toEqual(['two@example.test']);
    expect(two.total).toBe(1);
  });

  it('shows who did what, newest first, for one entity or all', async () => {
    const all = await console_.admin.audit.list({ pageSize: 10 });
    expect(all.items[0]).toMatchObject({ action: 'client.created', actorId: admin.id, actorEmail: admin.email, entity: 'client' });
    expect(all.items[0]!.createdAt).toBeInstanceOf(Date);
    const clientId = all.items[0]!.entityId!;
    const one = await console_.admin.audit.list({ entity: 'client', entityId: clientId });
    expect(one.items).toHaveLength(1);
    expect(one.items[0]!.details).toMatchObject({ email: 'three@example.test' });
    expect((await console_.admin.audit.list({ entity: 'subscription' })).items.map((a) => a.action)).toEqual(['subscription.assigned']);
  });
});
