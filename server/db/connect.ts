import { secureDataDir } from '../data-dir.js';
import { resolve } from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { createWriteHealth, type WriteHealth } from './disk-full.js';
import { withNamedStatements } from './prepared-pool.js';
import type { Database } from './schema.js';

/**
 * Both backends return the same JS types:
 * - int8 (count(*), bigserial) → number (our ids and counts stay far below 2^53)
 * - date → 'YYYY-MM-DD' string (a picked day must never shift with time zones)
 * - timestamptz → Date (default on both)
 */
const parseInt8 = (v: string) => Number.parseInt(v, 10);
const keepDateText = (v: string) => v;

let pgTypesConfigured = false;
function configurePgTypes() {
  if (pgTypesConfigured) return;
  pg.types.setTypeParser(pg.types.builtins.INT8, parseInt8);
  pg.types.setTypeParser(pg.types.builtins.DATE, keepDateText);
  pgTypesConfigured = true;
}

export type DbHandle = {
  db: Kysely<Database>;
  kind: 'postgres' | 'pglite';
  /** The connection URL (Postgres only), for clients that open their own pool (the job queue). */
  url?: string;
  /**
   * Listen to a NOTIFY channel; returns an unlisten function. `onReconnect`
   * runs after the connection dropped and came back: notifications sent
   * meanwhile are lost, so the caller must catch up some other way.
   */
  listen(channel: string, onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  /** Whether every LISTEN connection is up (readiness: a deaf instance misses events and revocations). */
  listening(): boolean;
  /** Whether writes fail for a full disk (readiness). */
  writes: WriteHealth;
  /** The pool's connections (pg only; the embedded database has one in-process connection). */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
};

/** A request waits this long for a pooled connection before it fails (as an outage: 503), instead of forever. */
const POOL_CONNECT_TIMEOUT_MS = 5_000;

export type PostgresOptions = {
  /**
   * Name each query text so it is prepared once per connection (default). Off: every query goes
   * unnamed, for a pooler in front that hands a session's statements to other server connections
   * (PgBouncer in transaction mode before 1.21, which cannot track them).
   */
  namedStatements?: boolean;
};

export function connectPostgres(url: string, poolSize = 10, { namedStatements = true }: PostgresOptions = {}): DbHandle {
  configurePgTypes();
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: POOL_CONNECT_TIMEOUT_MS });
  pool.on('error', (err) => console.warn('[db] idle client error:', err.message));
  // A client that is checked out (between the queries of a transaction) has no error listener of the
  // pool's: when the server ends its connection (a restart: 57P01) the 'error' event would crash the
  // process. The query that was running fails on its own, and the pool drops the broken client on release.
  pool.on('connect', (client) => {
    client.on('error', () => {});
    // Queued ahead of the first query the pool hands this client to.
    client.query(SESSION_SETTINGS).catch(() => {});
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: namedStatements ? withNamedStatements(pool) : pool }) });
  const listeners = new Set<ReturnType<typeof createPgListener>>();
  return {
    db,
    kind: 'postgres',
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    url,
    listening: () => [...listeners].every((l) => l.connected()),
    writes: createWriteHealth(),
    async listen(channel, onPayload, onReconnect) {
      const listener = createPgListener(url, channel, onPayload, onReconnect);
      await listener.ready;
      listeners.add(listener);
      return async () => {
        listeners.delete(listener);
        await listener.close();
      };
    },
    async close() {
      await Promise.all([...listeners].map((l) => l.close()));
      await db.destroy();
    },
  };
}

/** Reconnect attempts of a LISTEN connection back off up to this: the instance is ready again within ~1 s of the database. */
const LISTEN_RETRY_MAX_MS = 1_000;

/**
 * LISTEN needs a dedicated connection outside the pool. It reconnects with
 * backoff when the connection drops, so a database restart does not silence
 * realtime events for the life of the process.
 */
function createPgListener(url: string, channel: string, onPayload: (payload: string) => void, onReconnect?: () => void) {
  let client: pg.Client | null = null;
  let closed = false;
  let attempt = 0;
  let connected = false;
  let everConnected = false;
  let resolveReady!: () => void;
  const ready = new Promise<void>((r) => {
    resolveReady = r;
  });

  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString: url });
    client = c;
    c.on('error', (err) => {
      console.warn(`[db] listener on ${channel} lost its connection: ${err.message}`);
      scheduleReconnect(c);
    });
    c.on('end', () => scheduleReconnect(c));
    // A notification can arrive before the LISTEN's own answer is read: it is held until the caller has been told
    // of the reconnect, so its catch-up is ordered before anything this connection hears.
    let early: string[] | null = [];
    c.on('notification', (msg) => {
      if (msg.channel !== channel || msg.payload === undefined) return;
      if (early) early.push(msg.payload);
      else onPayload(msg.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (client !== c) return; // dropped (or closed) while connecting
      attempt = 0;
      connected = true;
      if (everConnected) onReconnect?.();
      everConnected = true;
      const heard = early;
      early = null;
      for (const payload of heard) onPayload(payload);
      resolveReady();
    } catch (err) {
      console.warn(`[db] could not LISTEN on ${channel}: ${(err as Error).message}`);
      scheduleReconnect(c);
    }
  };

  const scheduleReconnect = (c: pg.Client) => {
    if (closed || client !== c) return;
    client = null;
    connected = false;
    c.removeAllListeners('end');
    c.end().catch(() => {});
    attempt += 1;
    const delay = Math.min(LISTEN_RETRY_MAX_MS, 100 * 2 ** Math.min(attempt, 4)) + Math.floor(Math.random() * 100);
    setTimeout(connect, delay).unref();
  };

  void connect();
  return {
    ready,
    connected: () => connected,
    async close() {
      closed = true;
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners('end');
        await c.end().catch(() => {});
      }
    },
  };
}

/**
 * What every connection sets first. Food search (server/nutrition/foods-repo.ts) finds a name by
 * a word like the typed text (pg_trgm's `<%`): the default threshold, 0.6, misses one wrong letter
 * in a short word ("panner" against "Palak paneer" is 0.43); 0.4 finds it.
 */
export const SESSION_SETTINGS = 'set pg_trgm.word_similarity_threshold = 0.4';

/** Postgres extensions the migrations create, loaded into every embedded database (food search uses pg_trgm). */
export const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * The embedded database: on disk in `dataDir`, or in memory when none is given. `loadDataDir` starts
 * the in-memory one from a dump of another (PGlite's dumpDataDir), skipping its initdb: the tests
 * start every file from one migrated dump (tests/helpers/template-db.ts).
 */
export async function connectPglite(dataDir: string | undefined, opts: { loadDataDir?: Blob } = {}): Promise<DbHandle> {
  if (dataDir) secureDataDir(dataDir);
  const client = await PGlite.create({
    dataDir: dataDir ? resolve(dataDir) : undefined,
    loadDataDir: opts.loadDataDir,
    extensions: PGLITE_EXTENSIONS,
    parsers: { [pgliteTypes.INT8]: parseInt8, [pgliteTypes.DATE]: keepDateText },
  });
  await client.exec(SESSION_SETTINGS);
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  return {
    db,
    kind: 'pglite',
    listening: () => !client.closed,
    writes: createWriteHealth({ dataDir: dataDir ? resolve(dataDir) : undefined }),
    async listen(channel, onPayload) {
      const unlisten = await client.listen(channel, onPayload);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    async close() {
      await db.destroy();
      if (!client.closed) await client.close();
    },
  };
}
