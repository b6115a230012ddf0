import type { Kysely } from 'kysely';
import { publicBaseUrl } from '../http/public-url.js';
import { fullNameOf } from '../auth/session.js';
import type { Database } from '../db/schema.js';
import type { Config } from '../env.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Logger } from '../logger.js';
import { type Mailer, recordMail } from '../mail/mailer.js';
import { recordNotices } from '../notifications/notify.js';
import { appointmentMail } from './mails.js';
import * as repo from './repo.js';
import { callPathOf } from './shared.js';

/**
 * Appointment reminders, 24 hours and 1 hour before the start (decision 119).
 * A sweep on the job queue finds the reminders that are due; each is claimed
 * in appointment_reminders (appointment, which, start time) in the same
 * transaction that records its notice, so a retried job, a restart or a
 * second instance never sends one twice. The start time is part of the key:
 * an appointment moved to another time is reminded of its new time. A
 * reminder whose moment had already passed when the time was set (booked or
 * moved 5 hours ahead: no "tomorrow" reminder) is not sent, since the
 * confirmation said it all; nor is one whose moment passed more than
 * REMINDER_GRACE_MINUTES ago while nothing ran, except that the 1-hour one
 * still goes out until the start.
 */
export const APPOINTMENT_REMINDER_JOB = 'appointment-reminders';
export const APPOINTMENT_REMINDER_SWEEP_MINUTES = 1;
const REMINDERS = [
  { which: '24h', beforeMs: 24 * 3_600_000 },
  { which: '1h', beforeMs: 3_600_000 },
] as const;

type Deps = { db: Kysely<Database>; mailer: Mailer; logger: Logger; config: Config };

/** Sends every appointment reminder due at `now` that nobody has sent yet; returns how many this call sent. */
export async function sendAppointmentReminders(deps: Deps, now: Date): Promise<number> {
  const rows = await repo.bookedStartingBetween(deps.db, now, new Date(now.getTime() + REMINDERS[0].beforeMs));
  const publicUrl = publicBaseUrl(deps);
  let sent = 0;
  for (const r of rows) {
    const start = r.starts_at.getTime();
    // The latest one due: an hour before, the 1-hour one replaces a 24-hour one never sent.
    const due = [...REMINDERS].reverse().find((x) => now.getTime() >= start - x.beforeMs && r.timed_at.getTime() < start - x.beforeMs);
    if (!due) continue;
    const deliver = await deps.db.transaction().execute(async (trx) => {
      if (!(await repo.claimReminder(trx, r.id, due.which, r.starts_at))) return null;
      const event = due.which === '24h' ? 'reminder-24h' : 'reminder-1h';
      const dietitianName = fullNameOf({ first_name: r.dietitian_first, last_name: r.dietitian_last });
      const appointment = {
        id: r.id,
        kind: r.kind,
        start: r.starts_at,
        end: r.ends_at,
        dietitianName,
        dietitianEmail: r.dietitian_email,
        sequence: 0,
        callPath: callPathOf(r.id),
      };
      if (r.client_id !== null && r.client_email !== null) {
        const mail = appointmentMail({ event, to: r.client_email, name: r.client_first ?? '', appointment, publicUrl });
        return recordNotices(trx, deps, [
          {
            userId: r.client_id,
            category: 'reminders',
            key: `appointment:${r.id}:${due.which}:${start}`,
            push: { title: mail.subject, body: `With ${dietitianName}. Tap to open the call page.`, path: callPathOf(r.id) },
            mail,
          },
        ]);
      }
      if (!r.visitor_email) return () => {};
      const mail = appointmentMail({
        event,
        to: r.visitor_email,
        name: (r.visitor_name ?? '').split(/\s+/)[0] || 'there',
        appointment,
        publicUrl,
      });
      const at = await recordMail(trx, mail);
      return () => deps.mailer.deliverRecorded(at, mail);
    });
    if (!deliver) continue;
    deliver();
    sent += 1;
  }
  if (sent > 0) deps.logger.info(`appointment reminders sent: ${sent}`);
  return sent;
}

/** Registers the sweep on the job queue, every minute on whichever instance takes it. */
export function scheduleAppointmentReminders(queue: JobQueue, deps: Deps, clock: () => Date) {
  return queue.define(APPOINTMENT_REMINDER_JOB, () => sendAppointmentReminders(deps, clock()).then(() => undefined), {
    everyMinutes: APPOINTMENT_REMINDER_SWEEP_MINUTES,
  });
}
