import { sql } from 'kysely';
import type { Db } from '../db/index.js';

/** The login_attempts table: one row per slot taken in a rate-limit bucket (rate-limit.ts decides). */

/**
 * When the n-th newest slot of a bucket since `since` was taken (n from 1), or undefined when there are fewer:
 * the database's `rate_limit_full_at` (server/db/sql/), which message_send reads too.
 */
export async function nthNewestSlotSince(db: Db, bucket: string, since: Date, n: number): Promise<Date | undefined> {
  const { rows } = await sql<{
    at: Date | null;
  }>`select rate_limit_full_at(${bucket}::text, ${since}::timestamptz, ${n}::integer) as at`.execute(db);
  return rows[0]?.at ?? undefined;
}

/** A transaction-scoped advisory lock per bucket, in one order whatever the order given (`rate_limit_lock`, as message_send takes them). */
export async function lockBucketNames(trx: Db, buckets: string[]): Promise<void> {
  await sql`select rate_limit_lock(${buckets}::text[])`.execute(trx);
}

export async function insertSlots(trx: Db, buckets: string[], at: Date): Promise<void> {
  await trx
    .insertInto('login_attempts')
    .values(buckets.map((bucket) => ({ bucket, at })))
    .execute();
}

export async function deleteSlotsOfBucket(db: Db, bucket: string): Promise<void> {
  await db.deleteFrom('login_attempts').where('bucket', '=', bucket).execute();
}

export async function deleteSlotsBefore(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('login_attempts').where('at', '<', before).execute();
}
