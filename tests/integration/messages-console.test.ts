import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, failure } from '../helpers/callers.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * The console's side of messages: the inbox with its filters and
 * full-text search (Hindi too), the side panel, saved replies, office hours
 * and their automatic reply, and the client's "Download conversation".
 */
/** Thursday 26 Nov 2026, 11:00 in India. */
let now = new Date('2026-11-26T11:00:00+05:30');
const clock = () => now;

let server: TestServer;
let admin: TestUser;
let priya: TestUser;
let rahul: TestUser;
let zoya: TestUser;
const ids: Record<string, number> = {};

beforeAll(async () => {
  server = await startTestServer({}, { clock });
  [admin, priya, rahul, zoya] = await Promise.all([
    server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' }),
    server.user({ firstName: 'Priya', lastName: 'Nair' }),
    server.user({ firstName: 'Rahul', lastName: 'Mehta' }),
    server.user({ firstName: 'Zoya', lastName: 'Khan' }),
  ]);
  for (const [name, user] of [
    ['priya', priya],
    ['rahul', rahul],
    ['zoya', zoya],
  ] as const) {
    ids[name] = (await (await callerFor(server, user.token)).messages.conversations({ page: 0, pageSize: 25 })).items[0]!.id;
  }
});
afterAll(() => server?.stop());

const say = async (user: TestUser, conversationId: number, text: string) =>
  (await callerFor(server, user.token)).messages.send({ conversationId, text, clientMessageId: randomUUID() });
const console_ = async () => (await callerFor(server, admin.token)).admin.messages;

describe('the inbox', () => {
  it('lists newest first and filters Unread, Waiting for us and All', async () => {
    await say(priya, ids.priya!, 'मुझे आज भूख नहीं लगी, should I still eat lunch?');
    now = new Date(now.getTime() + 60_000);
    await say(rahul, ids.rahul!, 'I walked 10,000 steps today');
    now = new Date(now.getTime() + 60_000);
    await say(admin, ids.zoya!, 'Welcome to Poshan, Zoya!');
    const c = await console_();
    const all = await c.inbox({ filter: 'all', page: 0, pageSize: 25 });
    expect(all.items.map((r) => r.id).slice(0, 3)).toEqual([ids.zoya, ids.rahul, ids.priya]);
    expect(all.totalUnread).toBe(2);
    const waiting = await c.inbox({ filter: 'waiting', page: 0, pageSize: 25 });
    expect(waiting.items.map((r) => r.id)).toEqual([ids.rahul, ids.priya]);
    await (await callerFor(server, admin.token)).messages.read({ conversationId: ids.rahul!, seq: 1 });
    const unread = await c.inbox({ filter: 'unread', page: 0, pageSize: 25 });
    expect(unread.items.map((r) => [r.id, r.unread])).toEqual([[ids.priya, 1]]);
    expect(unread.total).toBe(1);
  });

  it('searches client names and message text, Hindi matched as written', async () => {
    const c = await console_();
    const hindi = await c.inbox({ filter: 'all', q: 'भूख', page: 0, pageSize: 25 });
    expect(hindi.items.map((r) => r.id)).toEqual([ids.priya]);
    expect(hindi.items[0]!.match).toEqual({ seq: 1, text: 'मुझे आज भूख नहीं लगी, should I still eat lunch?' });
    const english = await c.inbox({ filter: 'all', q: 'Steps', page: 0, pageSize: 25 });
    expect(english.items.map((r) => r.id)).toEqual([ids.rahul]);
    const byName = await c.inbox({ filter: 'all', q: 'zoya kh', page: 0, pageSize: 25 });
    expect(byName.items.map((r) => [r.id, r.match])).toEqual([[ids.zoya, null]]);
    expect((await c.inbox({ filter: 'all', q: 'पनीर', page: 0, pageSize: 25 })).items).toEqual([]);
    const bad = await failure(c.inbox({ filter: 'all', q: 'a\u0000b', page: 0, pageSize: 25 }));
    expect(bad.code).toBe('BAD_REQUEST');
  });

  it('shows the side panel of an open conversation and records the opening in the audit log', async () => {
    const dietitian = await callerFor(server, admin.token);
    await dietitian.admin.subscriptions.assign({
      clientId: priya.id,
      planType: 'WL',
      planId: 'tier-kickstart',
      startDate: '2026-11-01',
      amountReceived: 1000,
    });
    await (await callerFor(server, priya.token)).checkIn.create({
      weight: 64.5,
      adherence: 4,
      clientRequestId: randomUUID(),
      date: '2026-11-26',
    });
    const panel = await dietitian.admin.messages.panel({ conversationId: ids.priya! });
    expect(panel.conversation).toMatchObject({ id: ids.priya, client: { id: priya.id, name: 'Priya Nair' } });
    expect(panel.latestCheckIn).toMatchObject({ weight: 64.5, adherence: 4 });
    expect(panel.weights).toEqual([{ date: '2026-11-26', weight: 64.5 }]);
    expect(panel.subscription).toMatchObject({ startDate: '2026-11-01', status: 'Active' });
    expect(panel.activePlan).toBeNull();
    const audit = await server.deps.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id'])
      .where('entity', '=', 'conversation')
      .where('entity_id', '=', ids.priya!)
      .execute();
    expect(audit).toContainEqual({ action: 'conversation.opened', actor_id: admin.id });
    expect((await failure(dietitian.admin.messages.panel({ conversationId: 999999 }))).code).toBe('NOT_FOUND');
  });

  it('opens a client’s conversation from the console, made if needed; 404 for no such client', async () => {
    const fresh = await server.user({ firstName: 'Dev' });
    const c = await console_();
    const opened = await c.forClient({ clientId: fresh.id });
    expect((await c.forClient({ clientId: fresh.id })).conversationId).toBe(opened.conversationId);
    expect((await failure(c.forClient({ clientId: admin.id }))).code).toBe('NOT_FOUND');
  });

  it('sets and clears the primary dietitian; refuses a client as one', async () => {
    const c = await console_();
    await c.setPrimary({ conversationId: ids.rahul!, dietitianId: admin.id });
    const row = (await c.inbox({ filter: 'all', q: 'Rahul', page: 0, pageSize: 25 })).items[0]!;
    expect(row.primaryDietitian).toEqual({ id: admin.id, name: 'Meera Iyer' });
    expect((await failure(c.setPrimary({ conversationId: ids.rahul!, dietitianId: rahul.id }))).fieldErrors?.dietitianId).toBeDefined();
    expect((await failure(c.setPrimary({ conversationId: 999999, dietitianId: null }))).code).toBe('NOT_FOUND');
    await c.setPrimary({ conversationId: ids.rahul!, dietitianId: null });
  });
});

describe('saved replies', () => {
  it('creates, lists, edits and deletes them; only dietitians may', async () => {
    const c = await console_();
    const made = await c.createSavedReply({ title: 'Water', body: 'Drink 8 glasses of water a day.\nपानी ज़्यादा पिएं।' });
    expect(await c.savedReplies()).toContainEqual(expect.objectContaining({ id: made.id, title: 'Water' }));
    const edited = await c.updateSavedReply({ id: made.id, title: 'Water', body: 'Drink 10 glasses.' });
    expect(edited.body).toBe('Drink 10 glasses.');
    expect((await failure(c.createSavedReply({ title: ' ', body: 'x' }))).fieldErrors?.title).toEqual(['Title is required']);
    await c.deleteSavedReply({ id: made.id });
    expect((await failure(c.deleteSavedReply({ id: made.id }))).code).toBe('NOT_FOUND');
    expect((await failure((await callerFor(server, priya.token)).admin.messages.savedReplies())).code).toBe('FORBIDDEN');
  });
});

describe('office hours', () => {
  it('answers a client’s message outside them once per closed period, saying when to expect an answer', async () => {
    const c = await console_();
    expect(await c.officeHours()).toBeNull();
    await c.setOfficeHours({ days: [5, 1, 2, 3, 4], opens: '09:00', closes: '18:00' });
    expect(await c.officeHours()).toEqual({ days: [1, 2, 3, 4, 5], opens: '09:00', closes: '18:00' });
    expect((await failure(c.setOfficeHours({ days: [1], opens: '18:00', closes: '09:00' }))).fieldErrors?.closes).toEqual([
      'Closing time must be after opening time',
    ]);

    const client = await callerFor(server, zoya.token);
    const conversationId = ids.zoya!;
    // Open (Thursday 14:00): no automatic reply.
    now = new Date('2026-11-26T14:00:00+05:30');
    const inHours = await say(zoya, conversationId, 'A question in office hours');
    // Friday 20:00: closed until Monday 09:00.
    now = new Date('2026-11-27T20:00:00+05:30');
    const first = await say(zoya, conversationId, 'A question on Friday night');
    now = new Date('2026-11-28T10:00:00+05:30');
    const second = await say(zoya, conversationId, 'And another on Saturday');
    const page = await client.messages.list({ conversationId, after: inHours.seq - 1, limit: 100 });
    expect(page.messages.map((m) => [m.seq, m.sender.role])).toEqual([
      [inHours.seq, 'client'],
      [first.seq, 'client'],
      [first.seq + 1, 'system'],
      [second.seq, 'client'],
    ]);
    const auto = page.messages[2]!;
    expect(auto.sender).toEqual({ id: null, name: 'Poshan care team', role: 'system' });
    expect(auto.text).toContain('We are back on Monday, 30 Nov 2026, 9:00 am (India time)');
    // The next closed period (Monday night) gets its own.
    now = new Date('2026-11-30T19:00:00+05:30');
    const monday = await say(zoya, conversationId, 'Monday night');
    const after = await client.messages.list({ conversationId, after: monday.seq - 1, limit: 100 });
    expect(after.messages.map((m) => m.sender.role)).toEqual(['client', 'system']);
    expect(after.messages[1]!.text).toContain('Tuesday, 1 Dec 2026, 9:00 am');
    // The automatic reply counts as unread for the client, and does not make the team's "waiting" go away.
    const row = (await c.inbox({ filter: 'waiting', page: 0, pageSize: 25 })).items.find((r) => r.id === conversationId);
    expect(row?.waitingForUs).toBe(true);
    // The inbox's preview is the client's own last message, never the automatic reply that followed it.
    expect(row?.lastMessage).toMatchObject({ text: 'Monday night', senderRole: 'client' });
  });

  it('judges each send by the office hours as they are now, also when another instance changed them', async () => {
    const c = await console_();
    await c.setOfficeHours({ days: [1, 2, 3, 4, 5], opens: '09:00', closes: '18:00' });
    const conversationId = ids.rahul!;
    // Tuesday 1 Dec, 20:00: closed, so an automatic reply (this instance now knows these hours).
    now = new Date('2026-12-01T20:00:00+05:30');
    const closed = await say(rahul, conversationId, 'Tuesday night');
    expect(
      (
        await server.deps.db
          .selectFrom('messages')
          .select('sender_role')
          .where('conversation_id', '=', conversationId)
          .where('seq', '=', closed.seq + 1)
          .executeTakeFirst()
      )?.sender_role,
    ).toBe('system');
    // Another instance opens the office around the clock (its own write, not through this one).
    await server.deps.db
      .updateTable('message_settings')
      .set({ office_opens: '00:00', office_closes: '23:59', office_days: '0,1,2,3,4,5,6', updated_at: new Date(now.getTime() + 1) })
      .where('id', '=', 1)
      .execute();
    // Wednesday 20:00: open by the new hours, so no automatic reply, although this instance kept the old ones.
    now = new Date('2026-12-02T20:00:00+05:30');
    const open = await say(rahul, conversationId, 'Wednesday night');
    const last = await server.deps.db
      .selectFrom('conversations')
      .select('last_seq')
      .where('id', '=', conversationId)
      .executeTakeFirstOrThrow();
    expect(last.last_seq).toBe(open.seq);
  });
});

describe('download conversation', () => {
  it('gives the client their whole conversation as text, with senders and India times', async () => {
    const client = await callerFor(server, priya.token);
    const file = await client.messages.export({ conversationId: ids.priya! });
    expect(file.contentType).toBe('text/plain; charset=utf-8');
    expect(file.filename).toMatch(/^poshan-messages-\d{4}-\d{2}-\d{2}\.txt$/);
    expect(file.text).toContain('Poshan: messages between Priya Nair and the care team');
    expect(file.text).toContain('Priya Nair:\n  मुझे आज भूख नहीं लगी, should I still eat lunch?');
    expect((await failure((await callerFor(server, rahul.token)).messages.export({ conversationId: ids.priya! }))).code).toBe('FORBIDDEN');
  });
});
