import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { syncCountries } from '../../server/countries/sync.js';
import { connectPostgres, PGLITE_EXTENSIONS } from '../../server/db/connect.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import type { Database } from '../../server/db/schema.js';
import { createPgBossQueue } from '../../server/jobs/pg-boss-queue.js';
import { createLogger } from '../../server/logger.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * A database every test file starts from, migrated once for the whole run (createTestDatabase):
     * on Postgres the name of a database to copy (`create database … template`), on PGlite the path
     * of a dump of a migrated in-memory database. Undefined: each file migrates its own.
     */
    templateDatabase: { kind: 'postgres'; name: string } | { kind: 'pglite'; dumpPath: string } | undefined;
  }
}

/** What start-up writes into any database before serving: the schema, the job queue's schema, reference data. */
async function prepare(db: Kysely<Database>) {
  await migrateToLatest(db);
  await syncCountries(db);
}

/**
 * Vitest globalSetup of the projects whose files start servers (integration, browser): one migrated
 * database per run instead of one migration per file. A file then copies it in a fraction of a second
 * on Postgres, and on PGlite loads its dump instead of running initdb and every migration (the slow
 * part of a file's setup). Per run, not cached across runs: a migration edited between runs is never
 * served stale. `TEST_TEMPLATE_DB=0` turns it off.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_TEMPLATE_DB === '0' || process.env.TEST_DB === 'container') {
    project.provide('templateDatabase', undefined);
    return;
  }
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (baseUrl) {
    const name = `poshan_template_${randomBytes(5).toString('hex')}`;
    await adminQuery(baseUrl, `create database "${name}"`);
    const url = withDatabase(baseUrl, name);
    const handle = connectPostgres(url, 2);
    try {
      await prepare(handle.db);
    } finally {
      await handle.close();
    }
    // pg-boss creates its schema on first start; every file would otherwise pay for it.
    const boss = createPgBossQueue(url, createLogger({ level: 'warn', format: 'json' }));
    await boss.start();
    await boss.stop();
    project.provide('templateDatabase', { kind: 'postgres', name });
    return () => adminQuery(baseUrl, `drop database if exists "${name}" with (force)`);
  }
  const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  await prepare(db);
  const dump = await client.dumpDataDir('none');
  await db.destroy();
  if (!client.closed) await client.close();
  const dir = mkdtempSync(path.join(tmpdir(), 'poshan-template-'));
  const dumpPath = path.join(dir, 'pglite.tar');
  writeFileSync(dumpPath, Buffer.from(await dump.arrayBuffer()));
  project.provide('templateDatabase', { kind: 'pglite', dumpPath });
  return () => rmSync(dir, { recursive: true, force: true });
}

export function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
