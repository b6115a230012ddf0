import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { connectPglite, connectPostgres } from '../../server/db/connect.js';
import type { DbHandle } from '../../server/db/index.js';
import { adminQuery, withDatabase } from './template-db.js';

/**
 * A fresh database for one test file:
 * - TEST_DATABASE_URL set → a new database created on that server, dropped on close;
 * - TEST_DB=container → Postgres in a testcontainer (needs a Docker engine);
 * - otherwise → in-memory PGlite.
 * It starts migrated when the run has a template (tests/helpers/template-db.ts: the integration and
 * browser projects), empty otherwise or with `empty: true` (tests of the migrations themselves).
 * Either way the server's start-up migrates it to the latest, so callers never depend on which.
 */
export async function createTestDatabase(opts: { empty?: boolean } = {}): Promise<DbHandle & { url?: string }> {
  if (process.env.TEST_DB === 'container') return createContainerDatabase();
  const template = opts.empty ? undefined : providedTemplate();
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    if (template?.kind !== 'pglite') return connectPglite(undefined);
    return connectPglite(undefined, { loadDataDir: new Blob([await readFile(template.dumpPath)]) });
  }
  const name = `poshan_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(
    baseUrl,
    template?.kind === 'postgres' ? `create database "${name}" template "${template.name}"` : `create database "${name}"`,
  );
  const url = withDatabase(baseUrl, name);
  const handle = connectPostgres(url, 5);
  return {
    ...handle,
    url,
    async close() {
      await handle.close();
      await adminQuery(baseUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}

/** The run's template, when the project has one (inject throws outside a test run's context). */
function providedTemplate() {
  try {
    return inject('templateDatabase');
  } catch {
    return undefined;
  }
}

async function createContainerDatabase(): Promise<DbHandle & { url?: string }> {
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  let container: Awaited<ReturnType<InstanceType<typeof PostgreSqlContainer>['start']>>;
  try {
    container = await new PostgreSqlContainer('postgres:17-alpine').start();
  } catch (err) {
    throw new Error(`TEST_DB=container needs a Docker engine, and none answered: ${(err as Error).message}`);
  }
  const url = container.getConnectionUri();
  const handle = connectPostgres(url, 5);
  return {
    ...handle,
    url,
    async close() {
      await handle.close();
      await container.stop();
    },
  };
}
