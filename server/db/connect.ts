import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
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
  /** Listen to a NOTIFY channel; returns an unlisten function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
};

export function connectPostgres(url: string, poolSize = 10): DbHandle {
  configurePgTypes();
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', (err) => console.warn('[db] idle client error:', err.message));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const listeners = new Set<{ close(): Promise<void> }>();
  return {
    db,
    kind: 'postgres',
    async listen(channel, onPayload) {
      const listener = createPgListener(url, channel, onPayload);
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

/**
 * LISTEN needs a dedicated connection outside the pool. It reconnects with
 * backoff when the connection drops, so a database restart does not silence
 * realtime events for the life of the process.
 */
function createPgListener(url: string, channel: string, onPayload: (payload: string) => void) {
  let client: pg.Client | null = null;
  let closed = false;
  let attempt = 0;
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
    c.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload !== undefined) onPayload(msg.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      attempt = 0;
      resolveReady();
    } catch (err) {
      console.warn(`[db] could not LISTEN on ${channel}: ${(err as Error).message}`);
      scheduleReconnect(c);
    }
  };

  const scheduleReconnect = (c: pg.Client) => {
    if (closed || client !== c) return;
    client = null;
    c.removeAllListeners('end');
    c.end().catch(() => {});
    attempt += 1;
    const delay = Math.min(30_000, 250 * 2 ** Math.min(attempt, 7));
    setTimeout(connect, delay).unref();
  };

  void connect();
  return {
    ready,
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

export async function connectPglite(dataDir: string | undefined): Promise<DbHandle> {
  if (dataDir) mkdirSync(resolve(dataDir), { recursive: true });
  const client = await PGlite.create({
    dataDir: dataDir ? resolve(dataDir) : undefined,
    parsers: { [pgliteTypes.INT8]: parseInt8, [pgliteTypes.DATE]: keepDateText },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  return {
    db,
    kind: 'pglite',
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
