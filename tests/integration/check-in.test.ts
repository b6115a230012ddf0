import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../server/time.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { callerFor, failure, wsClient } from '../helpers/callers.js';
import { received } from '../helpers/until.js';

/** The follow-up loop over REST, tRPC and the live bus, with a clock the test moves. */
let now = new Date('2026-10-10T09:00:00Z');

let server: TestServer;
let admin: TestUser;
let asha: TestUser;
let ravi: TestUser;
let noPlan: TestUser;
let subscriptionId: number;

beforeAll(async () => {
  server = await startTestServer({}, { clock: () => now });
  [admin, asha, ravi, noPlan] = await Promise.all([
    server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' }),
    server.user({ firstName: 'Asha', lastName: 'Rao' }),
    server.user({ firstName: 'Ravi', lastName: 'Kumar' }),
    server.user({ firstName: 'Nina', lastName: 'Plan' }),
  ]);
  const dietitian = await callerFor(server, admin.token);
  // Asha: 1-month plan from 1 Oct (due every 14 days); Ravi: 6-month plan from 1 Oct (every 7).
  subscriptionId = (
    await dietitian.admin.subscriptions.assign({
      clientId: asha.id,
      planType: 'WL',
      planId: 'tier-kickstart',
      startDate: '2026-10-01',
      amountReceived: 1849,
    })
  ).id;
  await dietitian.admin.subscriptions.assign({
    clientId: ravi.id,
    planType: 'WL',
    planId: 'tier-commitment',
    startDate: '2026-10-01',
    amountReceived: 9599,
  });
});
afterAll(() => server?.stop());

const post = (token: string | undefined, body: unknown) => server.request('POST', '/api/check-ins', { token, body });
const list = (token: string | undefined, clientId?: number) =>
  server.request('GET', `/api/check-ins${clientId === undefined ? '' : `?clientId=${clientId}`}`, { token });

describe('POST /api/check-ins', () => {
  it('records a check-in with 201, and its weight in the weight history (the same day replaced)', async () => {
    await server.request('POST', '/api/updated-weights/add-updated-weight', {
      token: asha.token,
      body: { weight: 80, date: '2026-10-10' },
    });
    const res = await post(asha.token, { clientId: asha.id, weight: 78.4, adherence: 4, notes: 'Skipped sugar all week' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 201,
      data: { clientId: asha.id, date: '2026-10-10', weight: 78.4, adherence: 4, notes: 'Skipped sugar all week', reply: null },
    });
    const weights = await server.request('GET', '/api/updated-weights/get-updated-weights', { token: asha.token });
    expect(weights.body.data.filter((w: { date: string }) => w.date === '2026-10-10')).toEqual([expect.objectContaining({ weight: 78.4 })]);
    const me = await server.deps.db.selectFrom('users').select('weight_kg').where('id', '=', asha.id).executeTakeFirstOrThrow();
    expect(me.weight_kg).toBe(78.4);
  });

  it.each([
    [{ adherence: 3 }, 'Weight is required', 'weight'],
    [{ weight: 'heavy', adherence: 3 }, 'Weight must be a number', 'weight'],
    [{ weight: 0, adherence: 3 }, 'Weight must be between 1 and 500 kg', 'weight'],
    [{ weight: 70 }, 'Adherence is required', 'adherence'],
    [{ weight: 70, adherence: 6 }, 'Adherence must be a whole number from 1 to 5', 'adherence'],
    [{ weight: 70, adherence: 2.5 }, 'Adherence must be a whole number from 1 to 5', 'adherence'],
    [{ weight: 70, adherence: 3, notes: 'x'.repeat(1001) }, 'Notes must be at most 1,000 characters', 'notes'],
    [{ weight: 70, adherence: 3, clientId: 'me' }, 'clientId must be a number', 'clientId'],
  ])('refuses %j with 400 naming the field', async (body, message, field) => {
    const res = await post(asha.token, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.data.fieldErrors[field]).toContain(message);
  });

  it('refuses another client’s id with 403 and no token with 401', async () => {
    const other = await post(asha.token, { clientId: ravi.id, weight: 70, adherence: 3 });
    expect(other.status).toBe(403);
    expect(other.body.message).toBe('You can only access your own data.');
    expect((await post(undefined, { weight: 70, adherence: 3 })).status).toBe(401);
  });

  it('lets a dietitian check a named client in, and asks a dietitian for the client', async () => {
    expect((await post(admin.token, { clientId: ravi.id, weight: 90, adherence: 2 })).status).toBe(201);
    const missing = await post(admin.token, { weight: 90, adherence: 2 });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('clientId is required');
  });
});

describe('GET /api/check-ins and checkIn.list', () => {
  it('answers the own client and a dietitian, and refuses another client (403) over REST and tRPC', async () => {
    const own = await list(asha.token);
    expect(own.status).toBe(200);
    expect(own.body.data.history[0]).toMatchObject({ weight: 78.4, adherence: 4 });
    expect(own.body.data.next).toEqual({ state: 'upcoming', dueDate: '2026-10-24', pausedSince: null, everyDays: 14 });
    expect((await list(admin.token, asha.id)).body.data.history).toHaveLength(1);
    const other = await list(ravi.token, asha.id);
    expect(other.status).toBe(403);

    const asRavi = await callerFor(server, ravi.token);
    expect((await failure(asRavi.checkIn.list({ clientId: asha.id }))).code).toBe('FORBIDDEN');
    expect((await failure(asRavi.checkIn.create({ clientId: asha.id, weight: 70, adherence: 3 }))).code).toBe('FORBIDDEN');
    const asDietitian = await callerFor(server, admin.token);
    expect((await asDietitian.checkIn.list({ clientId: asha.id })).history).toHaveLength(1);
    expect((await failure(asRavi.admin.followUps.queue())).code).toBe('FORBIDDEN');
  });

  it('says when a client without a plan has nothing due', async () => {
    expect((await list(noPlan.token)).body.data.next).toEqual({ state: 'no-plan', dueDate: null, pausedSince: null, everyDays: null });
  });

  it('is listed in the OpenAPI document', async () => {
    const doc = (await server.request('GET', '/api/openapi.json')).body;
    expect(Object.keys(doc.paths['/check-ins'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(doc.paths['/check-ins'].post.responses['201']).toBeDefined();
    expect(doc.paths['/check-ins'].post.responses['403']).toBeDefined();
  });
});

describe('the follow-up queue', () => {
  it('orders overdue, due today, upcoming; each row has the last check-in, weights and days since contact', async () => {
    now = new Date('2026-10-15T09:00:00Z');
    const queue = await (await callerFor(server, admin.token)).admin.followUps.queue();
    const rows = queue.rows.filter((r) => [asha.id, ravi.id].includes(r.clientId));
    // Ravi: checked in on 10 Oct by his dietitian, 7-day plan → due 17 Oct; Asha: 10 Oct + 14 → 24 Oct.
    expect(rows.map((r) => [r.name, r.state, r.dueDate])).toEqual([
      ['Ravi Kumar', 'upcoming', '2026-10-17'],
      ['Asha Rao', 'upcoming', '2026-10-24'],
    ]);
    now = new Date('2026-10-19T09:00:00Z');
    const later = await (await callerFor(server, admin.token)).admin.followUps.queue();
    const ravisRow = later.rows.find((r) => r.clientId === ravi.id)!;
    expect(ravisRow).toMatchObject({ state: 'overdue', daysOverdue: 2, planName: 'Weight Loss 6 Months', daysSinceContact: 9 });
    expect(ravisRow.lastCheckIn).toMatchObject({ weight: 90, adherence: 2, date: '2026-10-10' });
    expect(later.rows[0]!.clientId).toBe(ravi.id);
    expect(later.rows.find((r) => r.clientId === asha.id)!.weights).toEqual([{ date: '2026-10-10', weight: 78.4 }]);
  });

  it('hears a new check-in live (dietitians only) and a reply reaches the client live, by mail, and in the audit log', async () => {
    const dietitianSocket = wsClient(server.url, admin.token);
    const clientSocket = wsClient(server.url, asha.token);
    const seen: unknown[] = [];
    const mine: unknown[] = [];
    const a = dietitianSocket.client.admin.followUps.events.subscribe(undefined, { onData: (e) => seen.push(e) });
    const b = clientSocket.client.checkIn.events.subscribe(undefined, { onData: (e) => mine.push(e) });
    try {
      await received<any>(seen, (e) => e.kind === 'ready');
      await received<any>(mine, (e) => e.kind === 'ready');
      const sent = await post(asha.token, { weight: 77.9, adherence: 5 });
      expect(sent.status).toBe(201);
      await received<any>(seen, (e) => e.kind === 'check-in.created' && e.clientId === asha.id);

      const dietitian = await callerFor(server, admin.token);
      const res = await dietitian.admin.followUps.reply({ checkInId: sent.body.data.id, reply: 'Great week, keep the walks going.' });
      expect(res.message).toBe('Reply sent to Asha.');
      await received<any>(mine, (e) => e.kind === 'check-in.replied' && e.checkInId === sent.body.data.id);
      const history = (await list(asha.token)).body.data.history;
      expect(history[0]).toMatchObject({ reply: 'Great week, keep the walks going.', repliedBy: 'Meera Iyer' });

      const mail = await server.deps.db
        .selectFrom('outbox')
        .select(['subject', 'body_text'])
        .where('to_address', '=', asha.email)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(mail.subject).toBe('Meera Iyer replied to your check-in');
      expect(mail.body_text).toContain('“Great week, keep the walks going.”');
      const audit = await server.deps.db
        .selectFrom('audit_log')
        .select(['action', 'actor_id'])
        .where('entity', '=', 'check_in')
        .where('entity_id', '=', sent.body.data.id)
        .execute();
      expect(audit).toEqual([{ action: 'check-in.replied', actor_id: admin.id }]);
      expect((await failure(dietitian.admin.followUps.reply({ checkInId: sent.body.data.id, reply: 'Again' }))).code).toBe('CONFLICT');
      expect((await failure(dietitian.admin.followUps.reply({ checkInId: sent.body.data.id, reply: '  ' }))).message).toBe(
        'Reply is required',
      );
    } finally {
      a.unsubscribe();
      b.unsubscribe();
      dietitianSocket.close();
      clientSocket.close();
    }
  });

  it('refuses the dietitians’ live events to a client', async () => {
    const socket = wsClient(server.url, ravi.token);
    try {
      const error = await new Promise<Error>((resolve) => {
        socket.client.admin.followUps.events.subscribe(undefined, { onError: resolve });
      });
      expect(error.message).toBe('Only dietitians can do that.');
    } finally {
      socket.close();
    }
  });
});

describe('pause and resume', () => {
  it('pauses from a date: nothing is due, the client sees it; resuming moves the end date out; both audited and mailed', async () => {
    const dietitian = await callerFor(server, admin.token);
    now = new Date('2026-10-20T09:00:00Z');
    const before = await server.deps.db
      .selectFrom('subscriptions')
      .select('end_date')
      .where('id', '=', subscriptionId)
      .executeTakeFirstOrThrow();
    expect(before.end_date).toBe('2026-10-31');

    expect((await failure(dietitian.admin.followUps.pause({ subscriptionId, from: '2026-10-25', reason: null }))).message).toBe(
      'The pause date cannot be in the future: pause on the day it starts.',
    );
    await dietitian.admin.followUps.pause({ subscriptionId, from: '2026-10-20', reason: 'Travelling for a wedding' });
    expect((await failure(dietitian.admin.followUps.pause({ subscriptionId, from: '2026-10-20', reason: null }))).code).toBe('CONFLICT');
    expect((await list(asha.token)).body.data.next).toMatchObject({ state: 'paused', pausedSince: '2026-10-20', dueDate: null });
    const card = await (await callerFor(server, asha.token)).subscription.active({ active: true });
    expect(card[0]).toMatchObject({ id: subscriptionId, pausedSince: '2026-10-20' });

    now = new Date('2026-10-27T09:00:00Z');
    const resumed = await dietitian.admin.followUps.resume({ subscriptionId });
    expect(resumed.endDate).toBe(addDays('2026-10-31', 7));
    // Last check-in 19 Oct (+14 = 2 Nov), paused 20–27 Oct (7 days) → due 9 Nov.
    expect((await list(asha.token)).body.data.next).toMatchObject({ state: 'upcoming', dueDate: '2026-11-09' });

    const audit = await server.deps.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'subscription')
      .where('entity_id', '=', subscriptionId)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['subscription.assigned', 'subscription.paused', 'subscription.resumed']);
    const subjects = (await server.deps.db.selectFrom('outbox').select('subject').where('to_address', '=', asha.email).execute()).map(
      (m) => m.subject,
    );
    expect(subjects).toEqual(expect.arrayContaining(['Your Weight Loss 1 Month is paused', 'Your Weight Loss 1 Month has resumed']));
  });
});
