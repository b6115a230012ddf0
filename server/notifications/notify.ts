import type { Kysely } from 'kysely';
import type { Db } from '../db/index.js';
import type { Database } from '../db/schema.js';
import { type Mail, type Mailer, type RecordedMail, recordMail } from '../mail/mailer.js';

/**
 * The one point every notification to a person passes through (messages,
 * reminders, diet plans, journal comments, appointments, invoices). A domain
 * decides *that* someone is told and what the event is; this module decides
 * *how*: e-mail through the outbox today, web push per signed-in device with
 * the phone-app issue (issue 24), each channel filtered by the person's
 * preferences for the category.
 *
 * `recordNotices` runs inside the transaction that made the decision, so a
 * notice exists exactly when its cause committed; it returns the work to run
 * once that transaction has committed (background delivery). `key` names the
 * notification: the same key recorded twice is told once (a retried job, two
 * instances sweeping).
 *
 * Nothing here carries health details: a push names the event ("New message
 * from your dietitian") and where a tap leads; a mail is composed by its
 * domain under the same rule.
 */
/**
 * What a person can turn e-mail and push on or off for (the profile's
 * preferences): messages (and comments on their journal), reminders (check-ins,
 * appointments), plans, appointments (booked, moved, cancelled), payments.
 */
export type NotificationCategory = 'messages' | 'reminders' | 'plans' | 'appointments' | 'payments';
export const NOTIFICATION_CATEGORIES: readonly NotificationCategory[] = ['messages', 'reminders', 'plans', 'appointments', 'payments'];

export type UserNotice = {
  userId: number;
  category: NotificationCategory;
  /** Unique per notification and recipient, e.g. `message:12:40:client`; a repeat is dropped. */
  key: string;
  /** What a phone shows: the event only, never health details; `path` is where a tap leads. */
  push: { title: string; body: string; path: string };
  /** The e-mail for this event, if it mails; sent only if the person's preferences allow. */
  mail?: Mail;
};

export type NotifyDeps = { mailer: Mailer };

/** Records each notice in `trx`; run the returned function after commit. */
export async function recordNotices(trx: Db, deps: NotifyDeps, notices: UserNotice[]): Promise<() => void> {
  const mails: { mail: Mail; at: RecordedMail }[] = [];
  for (const notice of notices) {
    if (notice.mail) mails.push({ mail: notice.mail, at: await recordMail(trx, notice.mail) });
  }
  return () => {
    for (const m of mails) deps.mailer.deliverRecorded(m.at, m.mail);
  };
}

/** For callers whose change has committed already: records the notices in their own transaction and delivers them. */
export async function sendNotices(deps: NotifyDeps & { db: Kysely<Database> }, notices: UserNotice[]): Promise<void> {
  if (notices.length === 0) return;
  const deliver = await deps.db.transaction().execute((trx) => recordNotices(trx, deps, notices));
  deliver();
}
