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

/** Records each notice in `trx`, as the person's preferences allow; run the returned function after commit. */
export async function recordNotices(trx: Db, deps: NotifyDeps, notices: UserNotice[]): Promise<AfterCommit> {
  const prefs = await preferencesOf(
    trx,
    notices.map((n) => n.userId),
  );
  const allowed = (n: UserNotice, channel: 'email' | 'push') => prefs.get(n.userId)?.[n.category][channel] ?? true;

  const mails: { mail: Mail; at: RecordedMail }[] = [];
  const outboxIds = new Map<string, number>();
  for (const notice of notices) {
    if (!notice.mail || !allowed(notice, 'email')) continue;
    const at = await recordMail(trx, notice.mail);
    mails.push({ mail: notice.mail, at });
    outboxIds.set(notice.key, at.id);
  }

  const pushing = notices.filter((n) => n.push && allowed(n, 'push'));
  const devices = await pushRepo.subscriptionsOfUsers(trx, [...new Set(pushing.map((n) => n.userId))]);
  const deliveries: pushRepo.NewDelivery[] = pushing.flatMap((n) =>
    devices
      .filter((d) => d.user_id === n.userId)
      .map((d) => ({
        notification_key: n.key,
        subscription_id: d.id,
        service_host: new URL(d.endpoint).host,
        payload: { title: n.push!.title, body: n.push!.body, url: n.push!.path, tag: n.push!.tag ?? n.key },
        ttl_seconds: DELIVERY[n.category].ttlSeconds,
        urgency: DELIVERY[n.category].urgency,
      })),
  );
  const deliveryIds = await pushRepo.insertDeliveries(trx, deliveries);

  const afterCommit = () => {
    for (const m of mails) deps.mailer.deliverRecorded(m.at, m.mail);
    // A push whose job could not be queued is not lost: the sweep sends what is due within a minute.
    if (deps.jobs && deliveryIds.length > 0) void enqueuePushDeliveries(deps.jobs, deliveryIds).catch(() => {});
  };
  return Object.assign(afterCommit, { outboxIds });
}

/** For callers whose change has committed already: records the notices in their own transaction and delivers them. */
export async function sendNotices(deps: NotifyDeps & { db: Kysely<Database> }, notices: UserNotice[]): Promise<void> {
  if (notices.length === 0) return;
  const deliver = await deps.db.transaction().execute((trx) => recordNotices(trx, deps, notices));
  deliver();
}
