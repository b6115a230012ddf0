import type { Kysely } from 'kysely';
import type { Db } from '../db/index.js';
import type { Database, PushUrgency } from '../db/schema.js';
import type { JobQueue } from '../jobs/queue.js';
import { type Mail, type Mailer, type RecordedMail, recordMail } from '../mail/mailer.js';
import * as pushRepo from '../push/repo.js';
import { enqueuePushDeliveries } from '../push/send.js';
import { preferencesOf } from './preferences.js';
import type { NotificationCategory } from './schema.js';

export { NOTIFICATION_CATEGORIES, type NotificationCategory } from './schema.js';

/**
 * The one point every notification to a person passes through (messages,
 * reminders, diet plans, journal comments, appointments, invoices). A domain
 * decides *that* someone is told and what the event is; this module decides
 * *how*: e-mail through the outbox, web push to each device the person
 * subscribed (decision 115), each channel only if the person's preferences
 * for the category allow it.
 *
 * `recordNotices` runs inside the transaction that made the decision, so a
 * notice exists exactly when its cause committed; it returns the work to run
 * once that transaction has committed (background delivery). `key` names the
 * notification: a push is recorded once per key and device (a unique row in
 * push_deliveries), so a retried job or two instances sweeping push it once.
 *
 * Nothing here carries health details: a push names the event ("New message
 * from your dietitian") and where a tap leads; a mail is composed by its
 * domain under the same rule.
 */
export type UserNotice = {
  userId: number;
  category: NotificationCategory;
  /** Unique per notification and recipient, e.g. `message:12:40:client`; a repeat is dropped. */
  key: string;
  /**
   * What a phone shows: the event only, never health details; `path` is where a tap leads, `tag`
   * (default: the key) groups notifications on the phone, a newer one replacing an older with the same tag.
   * Leave it out for a notice that only mails (the message e-mail after 10 minutes follows an earlier push).
   */
  push?: { title: string; body: string; path: string; tag?: string };
  /** The e-mail for this event, if it mails; sent only if the person's preferences allow. */
  mail?: Mail;
};

/** `jobs` queues the pushes at once; without it they wait for the minute's sweep (server/push/send.ts). */
export type NotifyDeps = { mailer: Mailer; jobs?: JobQueue };

/** Run after commit; `outboxIds` names the mail recorded for each notice key (for callers that link it). */
export type AfterCommit = (() => void) & { readonly outboxIds: ReadonlyMap<string, number> };

/** How long a push service keeps a notice for a phone that is off, and how urgently it wakes it (RFC 8030). */
const DELIVERY: Record<NotificationCategory, { ttlSeconds: number; urgency: PushUrgency }> = {
  messages: { ttlSeconds: 24 * 3600, urgency: 'high' },
  reminders: { ttlSeconds: 12 * 3600, urgency: 'normal' },
  plans: { ttlSeconds: 7 * 24 * 3600, urgency: 'normal' },
  appointments: { ttlSeconds: 24 * 3600, urgency: 'high' },
  payments: { ttlSeconds: 3 * 24 * 3600, urgency: 'normal' },
};

/** How a push of a category travels (its payload names the event only), as record_push_notices stores it. */
export function pushOf(category: NotificationCategory, push: NonNullable<UserNotice['push']>, key: string) {
  return {
    category,
    payload: { title: push.title, body: push.body, url: push.path, tag: push.tag ?? key },
    ttl_seconds: DELIVERY[category].ttlSeconds,
    urgency: DELIVERY[category].urgency,
  };
}

/** Runs after commit: the mails recorded go out, the pushes recorded are queued (`pushIds`, the new deliveries). */
export function deliverAfterCommit(
  deps: NotifyDeps,
  pushIds: readonly number[],
  mails: readonly { mail: Mail; at: RecordedMail }[] = [],
  outboxIds: ReadonlyMap<string, number> = new Map(),
): AfterCommit {
  const afterCommit = () => {
    for (const m of mails) deps.mailer.deliverRecorded(m.at, m.mail);
    // A push whose job could not be queued is not lost: the sweep sends what is due within a minute.
    if (deps.jobs && pushIds.length > 0) void enqueuePushDeliveries(deps.jobs, [...pushIds]).catch(() => {});
  };
  return Object.assign(afterCommit, { outboxIds });
}

/** Records each notice in `trx`, as the person's preferences allow; run the returned function after commit. */
export async function recordNotices(trx: Db, deps: NotifyDeps, notices: UserNotice[]): Promise<AfterCommit> {
  const mailing = notices.filter((n) => n.mail);
  const prefs =
    mailing.length > 0
      ? await preferencesOf(
          trx,
          mailing.map((n) => n.userId),
        )
      : new Map();
  const mails: { mail: Mail; at: RecordedMail }[] = [];
  const outboxIds = new Map<string, number>();
  for (const notice of mailing) {
    if (!(prefs.get(notice.userId)?.[notice.category].email ?? true)) continue;
    const at = await recordMail(trx, notice.mail!);
    mails.push({ mail: notice.mail!, at });
    outboxIds.set(notice.key, at.id);
  }
  // Pushes in one statement: the person's push preference and their devices are read by the database (record_push_notices).
  const pushIds = await pushRepo.recordPushNotices(
    trx,
    notices.flatMap((n) => (n.push ? [{ user_id: n.userId, key: n.key, ...pushOf(n.category, n.push, n.key) }] : [])),
  );
  return deliverAfterCommit(deps, pushIds, mails, outboxIds);
}

/** For callers whose change has committed already: records the notices in their own transaction and delivers them. */
export async function sendNotices(deps: NotifyDeps & { db: Kysely<Database> }, notices: UserNotice[]): Promise<void> {
  if (notices.length === 0) return;
  const deliver = await deps.db.transaction().execute((trx) => recordNotices(trx, deps, notices));
  deliver();
}
