import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../server/time.js';
import { sendDueReminders } from '../../server/check-in/reminders.js';
import { todayUtc } from '../../server/validation.js';
import { callerFor, wsClient } from '../helpers/callers.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { received } from '../helpers/until.js';

/**
 * The follow-up queue counts contact on every channel (repo.lastContacts):
 * a dietitian's message, her comment on the journal, a session marked done,
 * a check-in and its reply. A client's own message alone does not count. The
 * check-in schedule, and so the reminder mails, count from the last contact.
 */
const now = new Date();
const today = todayUtc(now);
// A 6-month plan (a check-in every 7 days) that started 48 days ago: 41 days overdue with no contact.
const START = addDays(today, -48);

let server: TestServer;
let admin: TestUser;
let asha: TestUser; // messages both ways
let ravi: TestUser; // a session marked done
let neha: TestUser; // a comment on her meal
let omar: TestUser; // no contact at all

beforeAll(async () => {
  server = await startTestServer({}, { clock: () => now });
  [admin, asha, ravi, neha, omar] = await Promise.all([
    server.user({ role: 'admin' }),
    server.user({ firstName: 'Asha' }),
    server.user({ firstName: 'Ravi' }),
    server.user({ firstName: 'Neha' }),
    server.user({ firstName: 'Omar' }),
  ]);
  const dietitian = await callerFor(server, admin.token);
  for (const c of [asha, ravi, neha, omar]) {
    await dietitian.admin.subscriptions.assign({
      clientId: c.id,
      planType: 'WL',
      planId: 'tier-commitment',
      startDate: START,
      amountReceived: 1000,
    });
  }
});
afterAll(async () => {
  await server?.stop();
});

const rowOf = async (clientId: number) => {
  const dietitian = await callerFor(server, admin.token);
  const queue = await dietitian.admin.followUps.queue();
  return queue.rows.find((r) => r.clientId === clientId)!;
};

describe('the follow-up queue counts every channel', () => {
  it('starts overdue with no contact', async () => {
    expect(await rowOf(asha.id)).toMatchObject({ state: 'overdue', daysOverdue: 41, daysSinceContact: null, lastContactAt: null });
  });

  it('a client’s message alone is not contact; the dietitian’s answer is, and the queue hears it live', async () => {
    const socket = wsClient(server.url, admin.token);
    const seen: any[] = [];
    const sub = socket.client.admin.followUps.events.subscribe(undefined, { onData: (e) => seen.push(e) });
    try {
      await received<any>(seen, (e) => e.kind === 'ready');
      const dietitian = await callerFor(server, admin.token);
      const client = await callerFor(server, asha.token);
      const { conversationId } = await dietitian.admin.messages.forClient({ clientId: asha.id });
      await client.messages.send({ conversationId, text: 'I ate out twice this week', clientMessageId: randomUUID() });
      expect(await rowOf(asha.id)).toMatchObject({ state: 'overdue', daysOverdue: 41, daysSinceContact: null });

      await dietitian.messages.send({ conversationId, text: 'That is fine, tell me what you chose', clientMessageId: randomUUID() });
      await received<any>(seen, (e) => e.kind === 'contact' && e.clientId === asha.id);
      const row = await rowOf(asha.id);
      expect(row).toMatchObject({ state: 'upcoming', daysOverdue: 0, daysSinceContact: 0, dueDate: addDays(today, 7) });
      expect(row.lastContactAt).toBeInstanceOf(Date);
    } finally {
      sub.unsubscribe();
      socket.close();
    }
  });

  it('a session marked done is contact, live', async () => {
    const socket = wsClient(server.url, admin.token);
    const seen: any[] = [];
    const sub = socket.client.admin.followUps.events.subscribe(undefined, { onData: (e) => seen.push(e) });
    try {
      await received<any>(seen, (e) => e.kind === 'ready');
      const startsAt = new Date(now.getTime() - 2 * 3_600_000);
      const endsAt = new Date(startsAt.getTime() + 30 * 60_000);
      const { id } = await server.deps.db
        .insertInto('appointments')
        .values({
          client_id: ravi.id,
          dietitian_id: admin.id,
          kind: 'follow_up',
          starts_at: startsAt,
          ends_at: endsAt,
          busy_until: endsAt,
          booked_by: admin.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(await rowOf(ravi.id)).toMatchObject({ state: 'overdue', daysSinceContact: null });
      const dietitian = await callerFor(server, admin.token);
      await dietitian.admin.appointments.mark({ id, status: 'done' });
      await received<any>(seen, (e) => e.kind === 'contact' && e.clientId === ravi.id);
      expect(await rowOf(ravi.id)).toMatchObject({ state: 'upcoming', daysSinceContact: 0 });
    } finally {
      sub.unsubscribe();
      socket.close();
    }
  });

  it('a dietitian’s comment on a meal is contact; the client’s own is not', async () => {
    const client = await callerFor(server, neha.token);
    const entry = await client.journal.create({ clientEntryId: randomUUID(), meal: 'lunch', description: 'Rajma chawal' } as never);
    await client.journal.comment({ entryId: entry.id, text: 'Was this too much rice?' });
    expect(await rowOf(neha.id)).toMatchObject({ state: 'overdue', daysSinceContact: null });
    const dietitian = await callerFor(server, admin.token);
    await dietitian.journal.comment({ entryId: entry.id, text: 'A little: half the rice, more rajma.' });
    expect(await rowOf(neha.id)).toMatchObject({ state: 'upcoming', daysSinceContact: 0 });
  });

  it('sends the overdue reminder only to the client nobody was in touch with', async () => {
    await sendDueReminders({ ...server.deps, config: { publicUrl: 'http://poshan.test' } }, today);
    const reminders = await server.deps.db
      .selectFrom('follow_up_reminders')
      .select(['client_id', 'kind'])
      .where('client_id', 'in', [asha.id, ravi.id, neha.id, omar.id])
      .execute();
    expect(reminders).toEqual([{ client_id: omar.id, kind: 'check_in_overdue' }]);
  });
});
