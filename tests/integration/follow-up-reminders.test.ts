import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../server/time.js';
import { formatDay } from '../../server/format.js';
import { REMINDER_JOB, sendDueReminders } from '../../server/check-in/reminders.js';
import { connectPostgres } from '../../server/db/connect.js';
import type { DbHandle } from '../../server/db/index.js';
import type { AppDeps } from '../../server/deps.js';
import { loadConfig } from '../../server/env.js';
import { createDeps, listen } from '../../server/server.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { callerFor } from '../helpers/callers.js';
import { until } from '../helpers/until.js';

/**
 * Reminders go out exactly once with two instances on one database: each
 * instance runs its own job queue (pg-boss on Postgres, the job table on
 * PGlite) and sweeps at the same moment as the other.
 */
const START = '2026-09-01';
const METRICS_TOKEN = 'metrics-token-for-follow-up-tests-0123';
let now = new Date(`${START}T06:00:00Z`);
const clock = () => now;
const at = (day: string) => {
  now = new Date(`${day}T06:00:00Z`);
};

let server: TestServer;
let second: { deps: AppDeps; stop(): Promise<void> };
let admin: TestUser;
let short: TestUser; // 1-month plan: due 15 Sep, ends 30 Sep
let long: TestUser; // 6-month plan: due 8 Sep
let paused: TestUser; // 6-month plan, paused from 2 Sep

beforeAll(async () => {
  server = await startTestServer({ METRICS_TOKEN }, { clock });
  const shared = server.deps.dbHandle as DbHandle & { url?: string };
  const own = shared.url ? connectPostgres(shared.url, 5) : null;
  const deps = await createDeps(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', SEED_DEMO: '0' }), own ?? shared, server.deps.secret, {
    clock,
  });
  const running = await listen(deps, { port: 0, host: '127.0.0.1', serveClient: false });
  second = {
    deps,
    async stop() {
      await running.close();
      await own?.close();
    },
  };
  [admin, short, long, paused] = await Promise.all([
    server.user({ role: 'admin' }),
    server.user({ firstName: 'Sana' }),
    server.user({ firstName: 'Leo' }),
    server.user({ firstName: 'Pia' }),
  ]);
  const dietitian = await callerFor(server, admin.token);
  const assign = (clientId: number, planId: 'tier-kickstart' | 'tier-commitment') =>
    dietitian.admin.subscriptions.assign({ clientId, planType: 'WL', planId, startDate: START, amountReceived: 1000 });
  await assign(short.id, 'tier-kickstart');
  await assign(long.id, 'tier-commitment');
  const p = await assign(paused.id, 'tier-commitment');
  at('2026-09-02');
  await dietitian.admin.followUps.pause({ subscriptionId: p.id, from: '2026-09-02', reason: null });
  // Mails of the setup (plan assigned, paused) are not reminders: count from here.
  const last = await server.deps.db
    .selectFrom('outbox')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  mailsBefore = Number(last?.id ?? 0);
});
let mailsBefore = 0;
afterAll(async () => {
  await second?.stop();
  await server?.stop();
});

const reminders = () =>
  server.deps.db.selectFrom('follow_up_reminders').select(['client_id', 'kind', 'due_date', 'outbox_id']).orderBy('id').execute();
/** Mails sent to `email` since the setup. */
const mailsTo = (email: string) =>
  server.deps.db
    .selectFrom('outbox')
    .select(['subject', 'body_text'])
    .where('to_address', '=', email)
    .where('id', '>', mailsBefore)
    .orderBy('id')
    .execute();

/** Both instances sweep at once, several times over, directly and through their job queues. */
async function sweepEverywhere(day: string) {
  at(day);
  const direct = await Promise.all(Array.from({ length: 4 }, (_, i) => sendDueReminders((i % 2 ? second : server).deps, day)));
  await Promise.all([server.deps.jobs.send(REMINDER_JOB), second.deps.jobs.send(REMINDER_JOB)]);
  await until(async () => (await server.deps.jobs.depth()) === 0 && (await second.deps.jobs.depth()) === 0, 'the job queues to drain');
  await server.deps.mailer.drain();
  await second.deps.mailer.drain();
  return direct.reduce((a, b) => a + b, 0);
}

describe('reminders with two instances on one database', () => {
  it('uses pg-boss on Postgres and the job table on the embedded database', () => {
    expect(server.deps.jobs.kind).toBe(server.deps.dbHandle.kind === 'postgres' ? 'pg-boss' : 'table');
    expect(second.deps.jobs.kind).toBe(server.deps.jobs.kind);
  });

  it('sends nothing before anything is due', async () => {
    expect(await sweepEverywhere('2026-09-07')).toBe(0);
    expect(await reminders()).toEqual([]);
  });

  it('sends the due reminder once on the due day, and not again the next day', async () => {
    expect(await sweepEverywhere('2026-09-08')).toBe(1);
    await sweepEverywhere('2026-09-09');
    const sent = await mailsTo(long.email);
    expect(sent.map((m) => m.subject)).toEqual(['Your Poshan check-in is due today']);
    expect(sent[0]!.body_text).toContain(`due today (${formatDay('2026-09-08')})`);
  });

  it('sends the overdue reminder once after 2 overdue days', async () => {
    await sweepEverywhere('2026-09-10');
    await sweepEverywhere('2026-09-11');
    expect((await mailsTo(long.email)).map((m) => m.subject)).toEqual([
      'Your Poshan check-in is due today',
      'Your Poshan check-in is 2 days overdue',
    ]);
  });

  it('sends the renewal reminder once, 3 days before the end, and nothing to a paused client', async () => {
    await sweepEverywhere('2026-09-15');
    await sweepEverywhere('2026-09-27');
    await sweepEverywhere('2026-09-28');
    const subjects = (await mailsTo(short.email)).map((m) => m.subject);
    expect(subjects.filter((s) => s.startsWith('Your Weight Loss 1 Month ends'))).toHaveLength(1);
    // The subscription is about to end, in the product's one date format.
    const renewal = (await mailsTo(short.email)).find((m) => m.subject.startsWith('Your Weight Loss 1 Month ends'));
    expect(renewal?.subject).toBe('Your Weight Loss 1 Month ends on 30 Sep 2026');
    expect(renewal?.body_text).toContain('ends on 30 Sep 2026, in 3 days.');
    expect(subjects.filter((s) => s === 'Your Poshan check-in is due today')).toHaveLength(1);
    expect(await mailsTo(paused.email)).toEqual([]);

    const rows = await reminders();
    const keys = rows.map((r) => `${r.client_id}/${r.kind}/${r.due_date}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(rows.every((r) => r.outbox_id !== null)).toBe(true);
    expect(keys).toEqual(
      expect.arrayContaining([
        `${long.id}/check_in_due/2026-09-08`,
        `${long.id}/check_in_overdue/2026-09-08`,
        `${short.id}/check_in_due/2026-09-15`,
        `${short.id}/renewal/2026-09-30`,
      ]),
    );
    expect(addDays('2026-09-30', -3)).toBe('2026-09-27');
  });

  it('lists the reminders in the console’s Outbox', async () => {
    const outbox = await (await callerFor(server, admin.token)).admin.outbox.list({ to: short.email });
    expect(outbox.items.map((m) => m.subject)).toContain(`Your Weight Loss 1 Month ends on ${formatDay('2026-09-30')}`);
  });

  it('exposes the job queue’s depth as a metric', async () => {
    const res = await server.request('GET', '/metrics', { token: METRICS_TOKEN });
    expect(res.status).toBe(200);
    expect(res.body).toMatch(/^poshan_job_queue_depth \d+$/m);
  });
});
