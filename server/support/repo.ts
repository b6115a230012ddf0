import type { Db } from '../db/index.js';
import { type PageRequest, pagedList } from '../db/paging.js';

export function insertSupportRequest(db: Db, request: { userId: number | null; name: string; email: string; message: string }) {
  return db
    .insertInto('support_requests')
    .values({ user_id: request.userId, name: request.name, email: request.email, message: request.message })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
}

type SupportStatus = 'open' | 'answered';

/** A page of support requests with who answered them; open ones oldest first (answer in order), the rest newest first. */
export function pageSupportRequests(db: Db, input: PageRequest & { status: 'all' | SupportStatus }) {
  let filtered = db.selectFrom('support_requests as s').leftJoin('users as a', 'a.id', 's.answered_by');
  if (input.status !== 'all') filtered = filtered.where('s.status', '=', input.status);
  const direction = input.status === 'open' ? 'asc' : 'desc';
  return pagedList(input, filtered, (q) =>
    q
      .select([
        's.id',
        's.user_id',
        's.name',
        's.email',
        's.message',
        's.status',
        's.reply',
        's.answered_at',
        's.created_at',
        'a.first_name as answered_first',
        'a.last_name as answered_last',
      ])
      .orderBy('s.created_at', direction)
      .orderBy('s.id', direction),
  );
}

/** One request, locked for a change. */
export function lockSupportRequest(db: Db, id: number) {
  return db
    .selectFrom('support_requests')
    .select(['id', 'name', 'email', 'message', 'status'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export function markSupportRequestAnswered(db: Db, id: number, by: number, reply?: string, now = new Date()) {
  return db
    .updateTable('support_requests')
    .set({ status: 'answered', answered_at: now, answered_by: by, ...(reply === undefined ? {} : { reply }) })
    .where('id', '=', id)
    .execute();
}

export function reopenSupportRequest(db: Db, id: number) {
  return db.updateTable('support_requests').set({ status: 'open', answered_at: null, answered_by: null }).where('id', '=', id).execute();
}
