import { type PageRequest, pagedList } from '../db/paging.js';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Database, Db } from '../db/index.js';

/** Mails not delivered yet (queued) and those whose delivery failed, along outbox_unsettled_idx. */
export async function countUnsettledMail(db: Db): Promise<{ queued: number; failed: number }> {
  const rows = await db
    .selectFrom('outbox')
    .select(['status', (eb) => eb.fn.countAll().as('n')])
    .where('status', 'in', ['queued', 'failed'])
    .groupBy('status')
    .execute();
  const counts = { queued: 0, failed: 0 };
  for (const r of rows) counts[r.status as 'queued' | 'failed'] = Number(r.n);
  return counts;
}

/** The newest mails whose delivery failed, for the console to retry. */
export function listFailedMail(db: Db, limit: number) {
  return db
    .selectFrom('outbox')
    .select(['id', 'to_address', 'subject', 'error', 'created_at'])
    .where('status', '=', 'failed')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * How long whoever wrote or took over a mail has to deliver it. Far longer
 * than one SMTP send, so the sweep never takes a mail from a sender that is
 * merely slow; and the sender renews the lease just before it sends.
 */
export const MAIL_LEASE_SECONDS = 600;
const leaseEnd = () => sql<Date>`now() + make_interval(secs => ${MAIL_LEASE_SECONDS})`;

/** A queued mail whose sender's lease ran out (it died between writing and sending), or one queued before leases. */
const leaseRanOut = (eb: ExpressionBuilder<Database, 'outbox'>) =>
  eb.and([eb('status', '=', 'queued'), eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', sql<Date>`now()`)])]);

/** What a retry may take: a failed mail, or a queued one nobody is delivering any more. */
const retryable = (eb: ExpressionBuilder<Database, 'outbox'>) => eb.or([eb('status', '=', 'failed'), leaseRanOut(eb)]);

/** Writes a mail to the outbox as queued, leased to the caller under `claimToken` (sensitive parts already hidden). */
export function insertQueuedMail(
  db: Db,
  mail: { to_address: string; subject: string; body_text: string; body_html: string | null; attachments: string | null },
  claimToken: string,
) {
  return db
    .insertInto('outbox')
    .values({ ...mail, status: 'queued', claim_token: claimToken, claimed_until: leaseEnd() })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** The sender's check just before it sends: its lease is extended, or undefined when the mail was taken over (or settled). */
export function renewMailClaim(db: Db, id: number, claimToken: string) {
  return db
    .updateTable('outbox')
    .set({ claimed_until: leaseEnd() })
    .where('id', '=', id)
    .where('claim_token', '=', claimToken)
    .where('status', '=', 'queued')
    .returning('id')
    .executeTakeFirst();
}

/** Records how delivery went, only for the lease holder; undefined when someone else took the mail over meanwhile. */
export function settleMail(
  db: Db,
  id: number,
  claimToken: string,
  outcome: { status: 'sent' | 'logged' | 'failed'; sent_at?: Date; error?: string },
) {
  return db
    .updateTable('outbox')
    .set({ ...outcome, claim_token: null, claimed_until: null })
    .where('id', '=', id)
    .where('claim_token', '=', claimToken)
    .returning('id')
    .executeTakeFirst();
}

/** Leases up to `limit` mails whose sender's lease ran out to the sweep, skipping rows another sweep holds. */
export function takeAbandonedMail(db: Db, claimToken: string, limit: number) {
  return db
    .updateTable('outbox')
    .set({ claim_token: claimToken, claimed_until: leaseEnd() })
    .where('id', 'in', (eb) => eb.selectFrom('outbox').select('id').where(leaseRanOut).orderBy('id').limit(limit).forUpdate().skipLocked())
    .where(leaseRanOut)
    .returning(['id', 'to_address', 'subject', 'body_text', 'body_html', 'attachments'])
    .execute();
}

/** A mail the console may retry (failed, or queued by a sender that died), or undefined. */
export function findRetryableMail(db: Db, id: number) {
  return db.selectFrom('outbox').select(['id', 'body_text']).where('id', '=', id).where(retryable).executeTakeFirst();
}

/**
 * Takes a mail for a retry, leased to the caller, unless its one-time link
 * was hidden when stored (resending it would send no link). Undefined when it
 * is not retryable (delivered, being delivered, or retried already), so two
 * retries cannot both send.
 */
export function takeMailForRetry(db: Db, id: number, claimToken: string, hiddenMarker: string) {
  return db
    .updateTable('outbox')
    .set({ status: 'queued', error: null, claim_token: claimToken, claimed_until: leaseEnd() })
    .where('id', '=', id)
    .where(retryable)
    .where(sql<boolean>`strpos(body_text, ${hiddenMarker}) = 0`)
    .returning(['id', 'to_address', 'subject', 'body_text', 'body_html', 'attachments'])
    .executeTakeFirst();
}

/** A page of outbox mails, newest first, along outbox_created_idx (or outbox_to_idx for one recipient). */
export function pageOutboxMails(db: Db, input: PageRequest & { to?: string }) {
  let filtered = db.selectFrom('outbox');
  if (input.to) filtered = filtered.where('to_address', '=', input.to);
  return pagedList(input, filtered, (q) =>
    q
      .select(['id', 'to_address', 'subject', 'body_text', 'status', 'error', 'created_at', 'sent_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc'),
  );
}
