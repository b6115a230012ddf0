import type { Kysely } from 'kysely';
import { clientToActFor } from '../auth/guards.js';
import { bucket, type KindedLimit, lockBuckets, recordSlots, secondsUntilAllowed, tooManyRequests } from '../auth/rate-limit.js';
import { ROLE } from '../auth/roles.js';
import { fullNameOf, type SessionUser } from '../auth/session.js';
import { findPlan } from '../catalogue/plans.js';
import type { Db } from '../db/index.js';
import { insertOnce, sameRequest } from '../db/idempotent.js';
import type { Database } from '../db/schema.js';
import type { RateLimits } from '../env.js';
import { badRequest } from '../errors.js';
import type { FollowUpBus } from './bus.js';
import { todayUtc } from '../validation.js';
import { recordWeight } from '../weight/service.js';
import { type CheckInSchedule, checkInIntervalDays, checkInSchedule, type Pause } from './cadence.js';
import { addDays, daysBetween } from '../time.js';
import * as repo from './repo.js';
import type { CheckIn, CreateCheckInInput, NextCheckIn, SentCheckIn } from './schema.js';

type Deps = { db: Kysely<Database>; followUpBus: FollowUpBus; config: { rateLimits: Pick<RateLimits, 'checkIns'> } };

type CheckInRow = NonNullable<Awaited<ReturnType<typeof repo.findCheckInByKey>>>;

function toCheckIn(r: CheckInRow): CheckIn {
  return {
    id: r.id,
    clientId: r.client_id,
    date: r.date,
    weight: r.weight_kg,
    adherence: r.adherence,
    notes: r.notes,
    reply: r.reply,
    repliedAt: r.replied_at,
    repliedBy: r.replier_first === null ? null : fullNameOf({ first_name: r.replier_first, last_name: r.replier_last ?? '' }),
    createdAt: r.created_at,
  };
}

/** How many months a subscription's plan runs: from the catalogue, else from its dates less any pauses. */
export function planMonths(s: { plan_type: string; plan_id: string; start_date: string; end_date: string }): number {
  const plan = findPlan(s.plan_type as never, s.plan_id as never);
  if (plan) return plan.durationMonths;
  return daysBetween(s.start_date, s.end_date) <= 31 ? 1 : 2;
}

type Running = Awaited<ReturnType<typeof repo.runningSubscriptions>>[number];

/** The schedule of each running subscription's client on `today`, counted from her last contact over any channel. */
export async function schedulesOn(db: Db, subscriptions: Running[], today: string) {
  const clientIds = subscriptions.map((s) => s.client_id);
  const [lastDays, contacts, pauses] = await Promise.all([
    repo.lastCheckInDays(db, clientIds),
    repo.lastContacts(db, clientIds),
    repo.pausesOf(
      db,
      subscriptions.map((s) => s.id),
    ),
  ]);
  const lastByClient = new Map(lastDays.map((r) => [r.client_id, r.date as string | null]));
  const contactByClient = new Map(contacts.map((c) => [c.client_id, new Date(c.at)]));
  const pausesBySub = new Map<number, Pause[]>();
  for (const p of pauses) {
    const list = pausesBySub.get(p.subscription_id) ?? [];
    list.push({ pausedFrom: p.paused_from, resumedOn: p.resumed_on });
    pausesBySub.set(p.subscription_id, list);
  }
  return new Map<number, { schedule: CheckInSchedule; everyDays: number; lastContactAt: Date | null }>(
    subscriptions.map((s) => {
      const months = planMonths(s);
      const lastContactAt = contactByClient.get(s.client_id) ?? null;
      const schedule = checkInSchedule({
        startDate: s.start_date,
        planMonths: months,
        lastCheckIn: lastByClient.get(s.client_id) ?? null,
        lastContact: lastContactAt === null ? null : todayUtc(lastContactAt),
        pauses: pausesBySub.get(s.id) ?? [],
        today,
      });
      return [s.client_id, { schedule, everyDays: checkInIntervalDays(months), lastContactAt }];
    }),
  );
}

export async function nextCheckInOf(db: Db, clientId: number, today: string): Promise<NextCheckIn> {
  const [subscription] = await repo.runningSubscriptions(db, today, clientId);
  if (!subscription) return { state: 'no-plan', dueDate: null, pausedSince: null, everyDays: null };
  const { schedule, everyDays } = (await schedulesOn(db, [subscription], today)).get(clientId)!;
  return schedule.state === 'paused'
    ? { state: 'paused', dueDate: null, pausedSince: schedule.pausedSince, everyDays }
    : { state: schedule.state, dueDate: schedule.dueDate, pausedSince: null, everyDays };
}

/**
 * A client checks in: the check-in and its weight (in the weight history, the
 * same day's entry replaced) are written together, and the dietitians'
 * follow-up queue hears of it when the transaction commits.
 */
export async function createCheckIn(deps: Deps, actor: SessionUser, input: CreateCheckInInput, now = new Date()): Promise<SentCheckIn> {
  const today = todayUtc(now);
  const clientId = await clientToActFor(deps.db, actor, input.clientId, 'clientId');
  const date = input.date ?? today;
  // The form sends the client's own today, which may be a day either side of UTC's.
  if (date < addDays(today, -1)) {
    const message = 'A check-in is for today: the date can be at most a day before today';
    throw badRequest(message, { date: [message] });
  }
  const key = input.clientRequestId ?? null;
  const limit = checkInLimit(deps.config.rateLimits, clientId);
  const sent = await deps.db.transaction().execute(async (trx) => {
    // One check-in at a time per client (the limit's own lock): a repeat racing its first waits, then finds it.
    await lockBuckets(trx, [limit]);
    // A repeat must carry what the first did; a date left out is today's, as it was for the first.
    const sameAs = (row: NonNullable<Awaited<ReturnType<typeof repo.findCheckInByKey>>>) =>
      sameRequest('clientRequestId', {
        ...(input.date === undefined ? {} : { date: [row.date, date] }),
        weight: [Number(row.weight_kg), input.weight],
        adherence: [row.adherence, input.adherence],
        notes: [row.notes, input.notes ?? null],
      });
    const first = key === null ? undefined : await repo.findCheckInByKey(trx, clientId, key);
    if (first) {
      sameAs(first);
      return { row: first, created: false };
    }
    // Counted in this transaction, so only check-ins that are stored count, and a repeat never does.
    const wait = await secondsUntilAllowed(trx, limit, now);
    if (wait > 0) throw tooManyRequests('new check-ins for this client', wait, [limit.kind]);
    const once = await insertOnce({
      insert: () =>
        repo.insertCheckIn(trx, {
          client_id: clientId,
          date,
          weight_kg: input.weight,
          adherence: input.adherence,
          notes: input.notes ?? null,
          created_at: now,
          client_request_id: key,
        }),
      existing: () => repo.findCheckInByKey(trx, clientId, key!),
      sameAs,
    });
    if (once.created) {
      await recordSlots(trx, [limit], now);
      await recordWeight(trx, clientId, input.weight, date);
      await deps.followUpBus.publish(trx, { kind: 'check-in.created', clientId, checkInId: once.row.id });
    }
    return once;
  });
  return { ...toCheckIn(sent.row), repeated: !sent.created };
}

/**
 * New check-ins per client, whoever sends them: every one is pushed to each
 * open console, so a flood from one account must stop at the server.
 */
function checkInLimit(limits: Pick<RateLimits, 'checkIns'>, clientId: number): KindedLimit {
  return { kind: 'check-in-client', bucket: bucket.checkInClient(clientId), ...limits.checkIns };
}

/** The client's next due check-in and their history with the dietitian's replies. */
export async function checkInOverview(db: Db, actor: SessionUser, clientIdInput: number | undefined, today = todayUtc()) {
  const clientId = await clientToActFor(db, actor, clientIdInput, 'clientId');
  const [next, rows] = await Promise.all([nextCheckInOf(db, clientId, today), repo.listCheckIns(db, clientId)]);
  return { next, history: rows.map(toCheckIn) };
}

/** Who may follow a client's live check-in events: the client, or any dietitian. */
export function mayFollow(actor: SessionUser, clientId: number) {
  return actor.role === ROLE.admin || actor.id === clientId;
}
