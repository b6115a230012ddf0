import type { Db } from '../db/index.js';

export function insertSupportRequest(db: Db, request: { userId: number | null; name: string; email: string; message: string }) {
  return db
    .insertInto('support_requests')
    .values({ user_id: request.userId, name: request.name, email: request.email, message: request.message })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
}
