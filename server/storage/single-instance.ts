import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from '../logger.js';

/** Names "an instance keeps its files in a local folder" among Postgres advisory locks (the second key is the folder's id). */
const LOCAL_FILES_LOCK_CLASS = 740_211;
const RECONNECT_MS = 5_000;

export class LocalFilesElsewhereError extends Error {}

export const LOCAL_FILES_ELSEWHERE =
  'another instance of Poshan uses this database and keeps its uploaded files in a different folder (another machine’s DATA_DIR). ' +
  'Files uploaded through one instance would be missing on the other. More than one instance needs S3-compatible storage: ' +
  'set S3_BUCKET (and S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) on every instance. See the README, "Files".';

/** The folder's own id, made once: instances that share the folder (one machine, or one shared volume) share the id. */
function folderId(dir: string): string {
  const file = path.join(dir, '.store-id');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${randomUUID()}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readFileSync(file, 'utf8').trim();
}

const takeAndCheck = async (client: pg.Client, id: string) => {
  await client.query('select pg_advisory_lock_shared($1, hashtext($2))', [LOCAL_FILES_LOCK_CLASS, id]);
  const others = await client.query<{ n: number }>(
    `select count(*)::int as n from pg_locks
      where locktype = 'advisory' and granted and objsubid = 2
        and database = (select oid from pg_database where datname = current_database())
        and classid::bigint = $1 and objid::bigint <> (hashtext($2)::bigint & 4294967295)`,
    [LOCAL_FILES_LOCK_CLASS, id],
  );
  return (others.rows[0]?.n ?? 0) === 0;
};

/**
 * Files kept in a local folder are seen only by the instances on that folder. On Postgres (where
 * several instances can share one database) each such instance holds a shared session-level advisory
 * lock named after its folder's id, on a connection of its own, for as long as it runs; an instance
 * that finds a lock of another folder refuses to start (decision 112). The embedded database has one
 * process by construction (its lock file), so it needs none of this.
 */
export async function holdLocalFilesLock(url: string, dir: string, logger: Logger): Promise<{ release(): Promise<void> }> {
  const id = folderId(dir);
  let client: pg.Client | null = null;
  let released = false;
  const connect = async () => {
    const c = new pg.Client({ connectionString: url });
    c.on('error', (err) => {
      if (released || client !== c) return;
      client = null;
      logger.warn('the connection that holds the local-files lock was lost; taking it again', { error: err.message });
      scheduleReconnect();
    });
    await c.connect();
    // Held for the life of the process, but never what keeps it alive.
    (c as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
    return c;
  };
  const scheduleReconnect = () => {
    const timer = setTimeout(async () => {
      if (released) return;
      try {
        const c = await connect();
        client = c;
        if (!(await takeAndCheck(c, id))) logger.error(`Uploaded files are not shared: ${LOCAL_FILES_ELSEWHERE}`);
      } catch (err) {
        // The database itself is gone (a test's, dropped): nothing left to guard.
        if ((err as { code?: string }).code === '3D000') return;
        scheduleReconnect();
      }
    }, RECONNECT_MS);
    timer.unref();
  };

  client = await connect();
  if (!(await takeAndCheck(client, id))) {
    released = true;
    await client.end().catch(() => {});
    throw new LocalFilesElsewhereError(LOCAL_FILES_ELSEWHERE);
  }
  return {
    async release() {
      released = true;
      await client?.end().catch(() => {});
      client = null;
    },
  };
}
