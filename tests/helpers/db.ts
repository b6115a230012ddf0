import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connectPglite, connectPostgres } from '../../server/db/connect.js';
import type { DbHandle } from '../../server/db/index.js';

/**
 * A fresh, empty database for one test file:
 * - TEST_DATABASE_URL set → a new database created on that server, dropped on close;
 * - TEST_DB=container → Postgres in a testcontainer (needs a Docker engine);
 * - otherwise → in-memory PGlite.
 */
export async function createTestDatabase(): Promise<DbHandle & { url?: string }> {
  if (process.env.TEST_DB === 'container') return createContainerDatabase();
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) return connectPglite(undefined);
  const name = `poshan_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdminClient(baseUrl, (c) => c.query(`create database "${name}"`));
  const url = withDatabase(baseUrl, name);
  const handle = connectPostgres(url, 5);
  return {
    ...handle,
    url,
    async close() {
      await handle.close();
      await withAdminClient(baseUrl, (c) => c.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function withAdminClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
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
