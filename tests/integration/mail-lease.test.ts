import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMINDER_JOB, sendDueReminders } from '../../server/check-in/reminders.js';
import { connectPostgres } from '../../server/db/connect.js';
import type { DbHandle } from '../../server/db/index.js';
import { loadConfig } from '../../server/env.js';
import { ABANDONED_WITH_HIDDEN_LINK, HIDDEN_IN_OUTBOX, type Mail, type Mailer, recordMail } from '../../server/mail/mailer.js';
import { createDeps, listen } from '../../server/server.js';
import { callerFor, failure } from '../helpers/callers.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { until } from '../helpers/until.js';

/**
 * Mail written to the outbox and then never sent, because its process
 * stopped between the commit and the SMTP call (a reminder claimed just
 * before a crash), is delivered by the sweep once the writer's lease has run
 * out, and the console may retry it; a writer that is merely slow finds its
 * mail taken over and does not send it a second time.
 */
const now = new Date('2026-09-08T06:00:00Z');
let server: TestServer;
let admin: TestUser;
let client: TestUser;

beforeAll(async () => {
  server = await startTestServer({}, { clock: () => now });
  [admin, client] = await Promise.all([server.user({ role: 'admin' }), server.user({ firstName: 'Leo' })]);
  // A 6-month plan from 1 Sep: the first check-in is due on 8 Sep, so a reminder is owed today.
  await (await callerFor(server, admin.token)).admin.subscriptions.assign({
    clientId: client.id,
    planType: 'WL',
    planId: 'tier-commitment',
    startDate: '2026-09-01',
    amountReceived: 1000,
  });
});
afterAll(() => server?.stop());

const outboxRow = (id: number) =>
  server.deps.db.selectFrom('outbox').select(['status', 'error', 'claim_token']).where('id', '=', id).executeTakeFirstOrThrow();
/** What the lease's running out looks like to the database: the writer's time is up. */
const leaseRunsOut = (id: number) =>
  server.deps.db.updateTable('outbox').set({ claimed_until: sql<Date>`now() - interval '1 second'` }).where('id', '=', id).execute();
const delivered = (to: string, subject?: string) => server.mails.filter((m) => m.to === to && (!subject || m.subject === subject));
const mail = (to: string, subject: string): Mail => ({ to, subject, text: `About ${subject}` });

describe('mail whose sender stopped before sending', () => {
  it('delivers a reminder claimed just before a crash once, after its lease ran out', async () => {
    // The instance claims the reminder and writes its mail in one transaction, then dies before delivering it.
    const crashed: Mailer = { ...server.deps.mailer, deliverRecorded: () => {} };
    expect(await sendDueReminders({ ...server.deps, mailer: crashed }, '2026-09-08')).toBe(1);
    const [reminder] = await server.deps.db
      .selectFrom('follow_up_reminders')
      .select('outbox_id')
      .where('client_id', '=', client.id)
      .execute();
    const id = reminder!.outbox_id!;
    expect((await outboxRow(id)).status).toBe('queued');

    // While the writer's lease lasts, it may still be sending: the sweep leaves the mail alone.
    expect(await server.deps.mailer.sweepAbandoned()).toEqual({ delivered: 0, failed: 0 });
    const REMINDER = 'Your Poshan check-in is due today';
    expect(delivered(client.email, REMINDER)).toEqual([]);

    await leaseRunsOut(id);
    expect(await server.deps.mailer.sweepAbandoned()).toEqual({ delivered: 1, failed: 0 });
    expect(await server.deps.mailer.sweepAbandoned()).toEqual({ delivered: 0, failed: 0 });
    expect(delivered(client.email, REMINDER)).toHaveLength(1);
    expect(await outboxRow(id)).toEqual({ status: 'logged', error: null, claim_token: null });
    // The reminder is not owed again: it was claimed once.
    expect(await sendDueReminders(server.deps, '2026-09-08')).toBe(0);
  });

  it('does not send twice when the first sender was merely slow: it checks its lease before sending', async () => {
    const slow = await recordMail(server.deps.db, mail('slow@example.test', 'Slow sender'));
    await leaseRunsOut(slow.id);
    expect((await server.deps.mailer.sweepAbandoned()).delivered).toBe(1);
    // The slow sender wakes up and delivers what it wrote: the mail is no longer its to send.
    server.deps.mailer.deliverRecorded(slow, mail('slow@example.test', 'Slow sender'));
    await server.deps.mailer.drain();
    expect(delivered('slow@example.test')).toHaveLength(1);
    expect((await outboxRow(slow.id)).status).toBe('logged');
  });

  it('fails, with what to do instead, a mail left behind whose one-time link was never stored', async () => {
    const reset = await recordMail(server.deps.db, {
      to: 'reset-crash@example.test',
      subject: 'Reset your password',
      text: 'Open https://poshan.test/reset-password?token=abc',
      sensitive: ['https://poshan.test/reset-password?token=abc'],
    });
    await leaseRunsOut(reset.id);
    expect(await server.deps.mailer.sweepAbandoned()).toEqual({ delivered: 0, failed: 1 });
    expect(await outboxRow(reset.id)).toMatchObject({ status: 'failed', error: ABANDONED_WITH_HIDDEN_LINK });
    expect(delivered('reset-crash@example.test')).toEqual([]);
    const row = await server.deps.db.selectFrom('outbox').select('body_text').where('id', '=', reset.id).executeTakeFirstOrThrow();
    expect(row.body_text).toContain(HIDDEN_IN_OUTBOX);
  });

  it('lets the console retry such a mail (once), and not one whose sender is still within its lease', async () => {
    const console_ = await callerFor(server, admin.token);
    const live = await recordMail(server.deps.db, mail('live@example.test', 'Still being sent'));
    expect(await failure(console_.admin.overview.retryMail({ id: live.id }))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'That mail is not waiting for a retry: it was sent, is being sent, or was retried already.',
    });

    const stuck = await recordMail(server.deps.db, mail('stuck@example.test', 'Left queued'));
    await leaseRunsOut(stuck.id);
    expect(await console_.admin.overview.retryMail({ id: stuck.id })).toEqual({ id: stuck.id, status: 'logged' });
    expect(delivered('stuck@example.test')).toHaveLength(1);
    expect((await failure(console_.admin.overview.retryMail({ id: stuck.id }))).code).toBe('NOT_FOUND');
    // The writer, had it only been slow, finds the mail taken over.
    server.deps.mailer.deliverRecorded(stuck, mail('stuck@example.test', 'Left queued'));
    await server.deps.mailer.drain();
    expect(delivered('stuck@example.test')).toHaveLength(1);
  });

  it('sweeps with every reminder run of the job queue', async () => {
    const left = await recordMail(server.deps.db, mail('job@example.test', 'Left for the job'));
    await leaseRunsOut(left.id);
    await server.deps.jobs.send(REMINDER_JOB);
    await until(async () => (await outboxRow(left.id)).status === 'logged', 'the job to deliver the mail');
    expect(delivered('job@example.test')).toHaveLength(1);
  });

  it('sweeps when an instance starts', async () => {
    const left = await recordMail(server.deps.db, mail('start@example.test', 'Left before a restart'));
    await leaseRunsOut(left.id);
    const shared = server.deps.dbHandle as DbHandle & { url?: string };
    const own = shared.url ? connectPostgres(shared.url, 3) : null;
    const deps = await createDeps(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', SEED_DEMO: '0' }), own ?? shared, server.deps.secret, {
      clock: () => now,
      mailSink: (m) => server.mails.push(m),
    });
    const running = await listen(deps, { port: 0, host: '127.0.0.1', serveClient: false });
    try {
      await deps.mailer.drain();
      expect((await outboxRow(left.id)).status).toBe('logged');
      expect(delivered('start@example.test')).toHaveLength(1);
    } finally {
      await running.close();
      await own?.close();
    }
  });
});
