import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLLOW_UP_VIEWS } from '../../server/check-in/schema.js';
import { HIDDEN_IN_OUTBOX } from '../../server/mail/mailer.js';
import { todayUtc } from '../../server/validation.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { callerFor, failure } from '../helpers/callers.js';

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
    // A dietitian reading the outbox cannot use another person's set-password link.
    expect(page.items[0]!.body).not.toContain('token=');
    expect(page.items[0]!.body).toContain('[link hidden: only the recipient receives it');
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

describe('admin.overview.health', () => {
  it('shows failed mails, retries one exactly once, and audits it', async () => {
    const before = await console_.admin.overview.health();
    const failed = await server.deps.db
      .insertInto('outbox')
      .values({
        to_address: 'late@example.test',
        subject: 'Your plan',
        body_text: 'Hello',
        status: 'failed',
        error: 'connect ECONNREFUSED',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const health = await console_.admin.overview.health();
    expect(health.failedMailCount).toBe(before.failedMailCount + 1);
    expect(health.failedMails[0]).toMatchObject({
      id: failed.id,
      to: 'late@example.test',
      subject: 'Your plan',
      error: 'connect ECONNREFUSED',
    });

    // No SMTP_URL in tests: a retried mail is delivered to the outbox (logged).
    expect(await console_.admin.overview.retryMail({ id: failed.id })).toEqual({ id: failed.id, status: 'logged' });
    const again = await failure(console_.admin.overview.retryMail({ id: failed.id }));
    expect(again).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('is being sent, or was retried already') });
    expect((await console_.admin.overview.health()).failedMailCount).toBe(before.failedMailCount);
    const audit = await server.deps.db.selectFrom('audit_log').select(['action', 'actor_id']).where('entity', '=', 'outbox').execute();
    expect(audit).toContainEqual({ action: 'outbox.retried', actor_id: admin.id });

    const client = await server.user();
    expect(await failure((await callerFor(server, client.token)).admin.overview.retryMail({ id: failed.id }))).toMatchObject({
      code: 'FORBIDDEN',
    });
  });

  it('does not resend a failed mail whose one-time link was hidden when stored: it says how to send a new one', async () => {
    const failed = await server.deps.db
      .insertInto('outbox')
      .values({
        to_address: 'reset@example.test',
        subject: 'Reset your password',
        body_text: `Open this link: ${HIDDEN_IN_OUTBOX}`,
        status: 'failed',
        error: 'connect ECONNREFUSED',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const refused = await failure(console_.admin.overview.retryMail({ id: failed.id }));
    expect(refused).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('Resend set-password link') });
    expect(server.mails.filter((m) => m.to === 'reset@example.test')).toEqual([]);
    const row = await server.deps.db.selectFrom('outbox').select('status').where('id', '=', failed.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
    expect(await server.deps.mailer.retry(failed.id)).toBeNull();
  });

  it('counts the clients live right now and tells when the server last logged an error', async () => {
    const client = await server.user();
    const start = (await console_.admin.overview.health()).liveClients;
    const closeA = server.deps.metrics.subscriptionOpened(client.id, client.role);
    const closeB = server.deps.metrics.subscriptionOpened(client.id, client.role);
    const closeAdmin = server.deps.metrics.subscriptionOpened(admin.id, admin.role);
    expect((await console_.admin.overview.health()).liveClients).toBe(start + 1);
    closeA();
    closeA();
    expect((await console_.admin.overview.health()).liveClients).toBe(start + 1);
    closeB();
    closeAdmin();
    expect((await console_.admin.overview.health()).liveClients).toBe(start);

    const t0 = Date.now();
    server.deps.logger.error('something broke', { where: 'test' });
    const { lastErrorAt } = await console_.admin.overview.health();
    expect(lastErrorAt?.getTime()).toBeGreaterThanOrEqual(t0);
  });
});

describe('admin.overview.get: the dietitian’s follow-ups', () => {
  it('counts check-ins awaiting a reply and overdue follow-ups, as the Follow-ups page shows them', async () => {
    const before = await console_.admin.overview.get();
    const [late, waiting] = await Promise.all([server.user(), server.user()]);
    const daysAgo = (n: number) => todayUtc(new Date(Date.now() - n * 86_400_000));
    // A weekly plan started 20 days ago with no check-in is overdue; one started today with a check-in awaits a reply.
    for (const [client, startDate] of [
      [late, daysAgo(20)],
      [waiting, daysAgo(0)],
    ] as const) {
      await console_.admin.subscriptions.assign({
        clientId: client.id,
        planType: 'WL',
        planId: 'tier-commitment',
        startDate,
        amountReceived: 1000,
      });
    }
    const checkIn = await (await callerFor(server, waiting.token)).checkIn.create({ weight: 70, adherence: 4 });

    const after = await console_.admin.overview.get();
    expect(after.overdueFollowUps).toBe(before.overdueFollowUps + 1);
    expect(after.checkInsAwaitingReply).toBe(before.checkInsAwaitingReply + 1);
    const queue = await console_.admin.followUps.queue();
    expect(queue.rows.filter(FOLLOW_UP_VIEWS.overdue.includes).map((r) => r.clientId)).toContain(late.id);
    expect(queue.rows.filter(FOLLOW_UP_VIEWS['awaiting-reply'].includes).map((r) => r.clientId)).toContain(waiting.id);

    await console_.admin.followUps.reply({ checkInId: checkIn.id, reply: 'A good start' });
    expect((await console_.admin.overview.get()).checkInsAwaitingReply).toBe(before.checkInsAwaitingReply);
  });
});
