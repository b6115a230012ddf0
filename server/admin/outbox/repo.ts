import type { Db } from '../../db/index.js';
import { type PageRequest, pagedList } from '../../db/paging.js';

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
