import { sql } from 'kysely';
import type { DbHandle } from './index.js';

/** An arbitrary constant that names "start-up work" among Postgres advisory locks. */
const STARTUP_LOCK_KEY = 7_402_100_611;

/**
 * Runs the start-up work (migrations, reference data, demo seed, job queue set-up) with no other
 * instance doing its own at the same time. Several instances started together on one fresh
 * database otherwise interleave those writes and can deadlock (seen: "deadlock detected" when two
 * instances started at once). A session-level advisory lock on one held connection; the work
 * itself uses the pool. The embedded database has one process (and one connection): nothing to order.
 */
export async function withStartupLock<T>(handle: DbHandle, work: () => Promise<T>): Promise<T> {
  if (handle.kind !== 'postgres') return work();
  return handle.db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${STARTUP_LOCK_KEY})`.execute(conn);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${STARTUP_LOCK_KEY})`.execute(conn);
    }
  });
}
