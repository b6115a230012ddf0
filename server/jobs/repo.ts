import { sql } from 'kysely';
import type { Db } from '../db/index.js';

/** The embedded database's job table (server/jobs/table-queue.ts). */

export async function insertJob(db: Db, name: string, data: Record<string, unknown>, singletonKey: string | null, startAfterSeconds = 0) {
  const row = await db
    .insertInto('job_queue')
    .values({
      name,
      data: JSON.stringify(data),
      singleton_key: singletonKey,
      run_after: sql<Date>`now() + make_interval(secs => ${startAfterSeconds})`,
    })
    .onConflict((oc) =>
      oc.columns(['name', 'singleton_key']).where('singleton_key', 'is not', null).where('state', 'in', ['created', 'active']).doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return row ? String(row.id) : null;
}

/**
 * Takes the oldest runnable job of the given names (or one whose worker
 * stopped answering: its lock ran out), skipping rows another worker holds.
 */
export function claimJob(db: Db, names: string[], lockSeconds: number) {
  return db
    .updateTable('job_queue')
    .set((eb) => ({
      state: 'active',
      attempts: eb('attempts', '+', 1),
      locked_until: sql<Date>`now() + make_interval(secs => ${lockSeconds})`,
    }))
    .where('id', '=', (eb) =>
      eb
        .selectFrom('job_queue')
        .select('id')
        .where('name', 'in', names)
        .where((w) =>
          w.or([
            w.and([w('state', '=', 'created'), w('run_after', '<=', sql<Date>`now()`)]),
            w.and([w('state', '=', 'active'), w('locked_until', '<', sql<Date>`now()`)]),
          ]),
        )
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['id', 'name', 'data', 'attempts'])
    .executeTakeFirst();
}

export function completeJob(db: Db, id: number) {
  return db.deleteFrom('job_queue').where('id', '=', id).execute();
}

export function failJob(db: Db, id: number, error: string, retryInSeconds: number | null) {
  return db
    .updateTable('job_queue')
    .set({
      state: retryInSeconds === null ? 'failed' : 'created',
      last_error: error.slice(0, 2000),
      locked_until: null,
      run_after: sql<Date>`now() + make_interval(secs => ${retryInSeconds ?? 0})`,
    })
    .where('id', '=', id)
    .execute();
}

export async function countWaitingJobs(db: Db, names: string[]): Promise<number> {
  if (names.length === 0) return 0;
  const row = await db
    .selectFrom('job_queue')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('name', 'in', names)
    .where('state', 'in', ['created', 'active'])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
