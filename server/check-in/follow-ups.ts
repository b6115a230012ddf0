import type { Kysely } from 'kysely';
import { fullNameOf, type SessionUser } from '../auth/session.js';
import { recordAudit } from '../audit/record.js';
import type { Db } from '../db/index.js';
import type { Database } from '../db/schema.js';
import { conflict, notFound } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import type { Logger } from '../logger.js';
import type { FollowUpBus } from './bus.js';
import { formatDay } from '../format.js';
import { todayUtc } from '../validation.js';
import { compareSchedules } from './cadence.js';
import { addDays, daysBetween } from '../time.js';
import { checkInReplyMail } from '../mail/templates.js';
import { journalAdherence } from '../journal/adherence.js';
import * as repo from './repo.js';
import { FOLLOW_UP_TREND_DAYS, type FollowUpRow } from './schema.js';
import { schedulesOn } from './service.js';
import { intakeMissingAmong } from '../care-record/intake.js';

export type FollowUpDeps = {
  db: Kysely<Database>;
  followUpBus: FollowUpBus;
  mailer: Mailer;
  logger: Logger;
  config: { publicUrl?: string };
};

/** Beyond this many running subscriptions the queue shows the first ones by client id (a practice this size splits its queue). */
export const FOLLOW_UP_QUEUE_LIMIT = 1000;

/**
 * Every client with a running subscription: overdue first (most overdue
 * first), then due today, then upcoming (soonest first), then paused.
 */
export async function followUpQueue(db: Db, now = new Date()): Promise<{ today: string; rows: FollowUpRow[] }> {
  const today = todayUtc(now);
  const subs = await repo.runningSubscriptions(db, today, undefined, FOLLOW_UP_QUEUE_LIMIT);
  const clientIds = subs.map((s) => s.client_id);
  const [schedules, latest, weights, pauses, journals] = await Promise.all([
    schedulesOn(db, subs, today),
    repo.latestCheckIns(db, clientIds),
    repo.recentWeights(db, clientIds, addDays(today, -FOLLOW_UP_TREND_DAYS)),
    repo.pausesOf(
      db,
      subs.map((s) => s.id),
    ),
    journalAdherence(db, clientIds, now),
  ]);
  const intakeMissing = await intakeMissingAmong(db, clientIds);
  const latestBy = new Map(latest.map((c) => [c.client_id, c]));
  const openPauseBy = new Map(pauses.filter((p) => p.resumed_on === null).map((p) => [p.subscription_id, p]));
  const weightsBy = new Map<number, { date: string; weight: number }[]>();
  for (const w of weights) {
    const list = weightsBy.get(w.client_id) ?? [];
    list.push({ date: w.date, weight: w.weight_kg });
    weightsBy.set(w.client_id, list);
  }
  const rows = subs.map((s): FollowUpRow => {
    const { schedule, everyDays, lastContactAt: contact } = schedules.get(s.client_id)!;
    const last = latestBy.get(s.client_id);
    return {
      clientId: s.client_id,
      name: fullNameOf(s),
      subscriptionId: s.id,
      planName: s.plan_name,
      endDate: s.end_date,
      state: schedule.state,
      dueDate: schedule.state === 'paused' ? null : schedule.dueDate,
      daysOverdue: schedule.state === 'paused' ? 0 : schedule.daysOverdue,
      everyDays,
      pausedSince: schedule.state === 'paused' ? schedule.pausedSince : null,
      pauseReason: openPauseBy.get(s.id)?.reason ?? null,
      lastCheckIn: last
        ? {
            id: last.id,
            clientId: last.client_id,
            date: last.date,
            weight: last.weight_kg,
            adherence: last.adherence,
            notes: last.notes,
            reply: last.reply,
            repliedAt: last.replied_at,
            createdAt: last.created_at,
          }
        : null,
      weights: weightsBy.get(s.client_id) ?? [],
      lastContactAt: contact,
      daysSinceContact: contact === null ? null : Math.max(0, daysBetween(todayUtc(contact), today)),
      journal: journals.get(s.client_id) ?? { daysLogged: 0, lastLogged: null, intake: null },
      intakeMissing: intakeMissing.has(s.client_id),
    };
  });
  const scheduleOf = (row: FollowUpRow) => schedules.get(row.clientId)!.schedule;
  rows.sort((a, b) => compareSchedules(scheduleOf(a), scheduleOf(b)) || a.name.localeCompare(b.name));
  return { today, rows };
}

/**
 * A dietitian answers a check-in: the reply and its audit line commit
 * together, the client's page hears of it live, and the client gets a mail.
 */
export async function replyToCheckIn(
  deps: FollowUpDeps,
  actor: SessionUser,
  input: { checkInId: number; reply: string },
  now = new Date(),
) {
  const done = await deps.db.transaction().execute(async (trx) => {
    const c = await repo.findCheckIn(trx, input.checkInId);
    if (!c) throw notFound('That check-in does not exist.');
    if (c.reply !== null) throw conflict('This check-in already has a reply.');
    const saved = await repo.setReply(trx, c.id, input.reply, actor.id, now);
    await recordAudit(trx, actor, {
      action: 'check-in.replied',
      entity: 'check_in',
      entityId: c.id,
      summary: `Replied to the check-in of ${fullNameOf(c)} of ${formatDay(c.date)}`,
      details: { clientId: c.client_id, reply: input.reply },
    });
    await deps.followUpBus.publish(trx, { kind: 'check-in.replied', clientId: c.client_id, checkInId: c.id });
    return { c, repliedAt: saved.replied_at! };
  });
  await deps.mailer.send(
    checkInReplyMail({
      to: done.c.email,
      firstName: done.c.first_name,
      publicUrl: deps.config.publicUrl,
      checkInDate: done.c.date,
      reply: input.reply,
      dietitianName: actor.fullName,
    }),
  );
  return { message: `Reply sent to ${done.c.first_name}.`, repliedAt: done.repliedAt };
}
