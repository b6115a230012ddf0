import type { Kysely } from 'kysely';
import type { Database, FollowUpReminderKind } from '../db/schema.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Logger } from '../logger.js';
import type { Mail, Mailer } from '../mail/mailer.js';
import { type UserNotice, recordNotices } from '../notifications/notify.js';
import { todayUtc } from '../validation.js';
import { daysBetween } from '../time.js';
import { checkInDueMail, checkInOverdueMail, renewalMail } from '../mail/templates.js';
import * as repo from './repo.js';
import { schedulesOn } from './service.js';

/**
 * Reminder mails (decision record 072): a check-in due today, a check-in two
 * days overdue, a subscription ending in three days. A sweep finds who is owed
 * one; each is claimed in follow_up_reminders (unique per client, kind and
 * due date) in the same transaction that writes its mail to the outbox, so
 * however many instances sweep at once, each reminder is sent exactly once.
 * Sweeps tolerate missed runs: a reminder whose day passed while nothing ran
 * still goes out (the due one within a day, the renewal until the end date).
 */
export const REMINDER_JOB = 'follow-up-reminders';
export const REMINDER_SWEEP_MINUTES = 15;
export const OVERDUE_REMINDER_AFTER_DAYS = 2;
export const RENEWAL_REMINDER_DAYS_BEFORE = 3;

type ReminderDeps = { db: Kysely<Database>; mailer: Mailer; jobs?: JobQueue; logger: Logger; config: { publicUrl?: string } };
type Owed = { clientId: number; kind: FollowUpReminderKind; dueDate: string; mail: Mail };

async function remindersOwed(deps: ReminderDeps, today: string): Promise<Owed[]> {
  const subs = await repo.runningSubscriptions(deps.db, today);
  const schedules = await schedulesOn(deps.db, subs, today);
  const owed: Owed[] = [];
  for (const s of subs) {
    const { schedule } = schedules.get(s.client_id)!;
    if (schedule.state === 'paused') continue; // nothing is due while paused, not even the renewal
    const who = { to: s.email, firstName: s.first_name, publicUrl: deps.config.publicUrl };
    const late = schedule.daysOverdue;
    if (schedule.state === 'due' || (schedule.state === 'overdue' && late < OVERDUE_REMINDER_AFTER_DAYS)) {
      owed.push({
        clientId: s.client_id,
        kind: 'check_in_due',
        dueDate: schedule.dueDate,
        mail: checkInDueMail({ ...who, dueDate: schedule.dueDate }),
      });
    } else if (schedule.state === 'overdue') {
      owed.push({
        clientId: s.client_id,
        kind: 'check_in_overdue',
        dueDate: schedule.dueDate,
        mail: checkInOverdueMail({ ...who, dueDate: schedule.dueDate, daysOverdue: late }),
      });
    }
    const daysLeft = daysBetween(today, s.end_date);
    if (daysLeft >= 0 && daysLeft <= RENEWAL_REMINDER_DAYS_BEFORE) {
      owed.push({
        clientId: s.client_id,
        kind: 'renewal',
        dueDate: s.end_date,
        mail: renewalMail({ ...who, planName: s.plan_name, endDate: s.end_date, daysLeft }),
      });
    }
  }
  return owed;
}

/** What a phone shows for a reminder: the event only. */
const REMINDER_PUSH: Record<FollowUpReminderKind, UserNotice['push']> = {
  check_in_due: { title: 'Your check-in is due', body: 'Tell your dietitian how the week went.', path: '/dashboard/check-in' },
  check_in_overdue: { title: 'Your check-in is waiting', body: 'A few minutes now keeps your plan on track.', path: '/dashboard/check-in' },
  renewal: { title: 'Your plan ends soon', body: 'Renew to keep working with your dietitian.', path: '/dashboard/active-subscription' },
};

/**
 * Sends every reminder owed on `today` that no instance has sent yet; returns how many this call sent.
 * Through the notification point: e-mail and push, as the client's reminder preferences allow.
 */
export async function sendDueReminders(deps: ReminderDeps, today: string): Promise<number> {
  let sent = 0;
  for (const r of await remindersOwed(deps, today)) {
    const deliver = await deps.db.transaction().execute(async (trx) => {
      const claim = await repo.claimReminder(trx, { client_id: r.clientId, kind: r.kind, due_date: r.dueDate });
      if (!claim) return null; // sent already, by this instance or another
      const key = `reminder:${claim.id}`;
      const recorded = await recordNotices(trx, deps, [
        { userId: r.clientId, category: 'reminders', key, push: REMINDER_PUSH[r.kind], mail: r.mail },
      ]);
      const outboxId = recorded.outboxIds.get(key);
      if (outboxId !== undefined) await repo.linkReminderMail(trx, claim.id, outboxId);
      return recorded;
    });
    // Should this process stop before the mail goes out, its lease runs out and the next sweep sends it.
    if (deliver === null) continue;
    deliver();
    sent += 1;
  }
  if (sent > 0) deps.logger.info(`follow-up reminders sent: ${sent}`);
  return sent;
}

/**
 * Registers the reminder sweep on the job queue, every REMINDER_SWEEP_MINUTES
 * on whichever instance takes it. Each run first delivers mail that a stopped
 * instance recorded but never sent (its lease ran out).
 */
export function scheduleReminders(queue: JobQueue, deps: ReminderDeps, clock: () => Date) {
  return queue.define(
    REMINDER_JOB,
    async () => {
      await deps.mailer.sweepAbandoned();
      await sendDueReminders(deps, todayUtc(clock()));
    },
    { everyMinutes: REMINDER_SWEEP_MINUTES },
  );
}
