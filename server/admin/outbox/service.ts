import type { Db } from '../../db/index.js';
import { offsetOf, paged } from '../paging.js';

/** Newest first, along outbox_created_idx (or outbox_to_idx for one recipient). */
export function listOutbox(db: Db, input: { to?: string; page: number; pageSize: number }) {
  const { offset, limit } = offsetOf(input);
  let rows = db.selectFrom('outbox').select(['id', 'to_address', 'subject', 'body_text', 'status', 'error', 'created_at', 'sent_at']);
  let count = db.selectFrom('outbox').select((eb) => eb.fn.countAll().as('n'));
  if (input.to) {
    rows = rows.where('to_address', '=', input.to);
    count = count.where('to_address', '=', input.to);
  }
  return paged(
    input,
    rows
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute()
      .then((list) =>
        list.map((m) => ({
          id: m.id,
          to: m.to_address,
          subject: m.subject,
          body: m.body_text,
          status: m.status,
          error: m.error,
          createdAt: m.created_at,
          sentAt: m.sent_at,
        })),
      ),
    count.executeTakeFirst(),
  );
}
