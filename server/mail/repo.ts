import { type PageRequest, pagedList } from '../db/paging.js';
import { sql } from 'kysely';
import type { Db } from '../db/index.js';

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

/** Puts a failed mail back in the queue; null when it is not (or no longer) failed, so two retries cannot both send. */
/** A failed mail by id (what the console may retry), or undefined. */
export function findFailedMail(db: Db, id: number) {
  return db.selectFrom('outbox').select(['id', 'body_text']).where('id', '=', id).where('status', '=', 'failed').executeTakeFirst();
}

/** Marks a failed mail queued again, unless its one-time link was hidden when stored (resending it would send no link). */
export function requeueFailedMail(db: Db, id: number, hiddenMarker: string) {
  return db
    .updateTable('outbox')
    .set({ status: 'queued', error: null })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .where(sql<boolean>`strpos(body_text, ${hiddenMarker}) = 0`)
    .returning(['id', 'to_address', 'subject', 'body_text'])
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
