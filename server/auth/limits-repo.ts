import { sql } from 'kysely';
import type { Db } from '../db/index.js';

/** The login_attempts table: one row per slot taken in a rate-limit bucket (rate-limit.ts decides). */

/** When the n-th newest slot of a bucket since `since` was taken (n from 1), or undefined when there are fewer. */
export async function nthNewestSlotSince(db: Db, bucket: string, since: Date, n: number): Promise<Date | undefined> {
  const row = await db
    .selectFrom('login_attempts')
    .select('at')
    .where('bucket', '=', bucket)
    .where('at', '>', since)
    .orderBy('at', 'desc')
    .offset(n - 1)
    .limit(1)
    .executeTakeFirst();
  return row?.at;
}

/** A transaction-scoped advisory lock per bucket, taken in the order given. */
export async function lockBucketNames(trx: Db, buckets: string[]): Promise<void> {
  for (const bucket of buckets) await sql`select pg_advisory_xact_lock(hashtextextended(${bucket}, 0))`.execute(trx);
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
