import { sql } from 'kysely';
import { connectPostgres } from '../db/connect.js';
import type { DbHandle } from '../db/index.js';

/** Postgres could not be reached; the message says where (never the password). */
export class PostgresUnreachableError extends Error {}

/** A command's one connection to Postgres at DATABASE_URL, checked with a query before the command relies on it. */
export async function connectPostgresForCommand(url: string, opts: { namedStatements: boolean }): Promise<DbHandle> {
  const handle = connectPostgres(url, 1, { namedStatements: opts.namedStatements });
  try {
    await sql`select 1`.execute(handle.db);
    return handle;
  } catch (err) {
    await handle.close();
    const u = new URL(url);
    throw new PostgresUnreachableError(`Cannot reach Postgres at ${u.host}${u.pathname} (DATABASE_URL): ${(err as Error).message}`);
  }
}
