import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from './db/index.js';
import { type DataDirLock, DataDirLockedError, acquireDataDirLock } from './db/lock.js';
import { type Config, ConfigError, loadConfig } from './env.js';
import { ACCEPT_QUEUE_MAX_MS } from './http/lifecycle.js';
import { removeInternalToken, writeInternalToken } from './internal/token.js';
import { startTracing, stopTracing } from './observability/tracing.js';
import { DEMO_ACCOUNTS, demoAccountsPresent } from './seed/demo.js';
import { createDeps, listen, openDatabase } from './server.js';
import { pdfPool } from './pdf/pool.js';
import { LocalFilesElsewhereError } from './storage/single-instance.js';
import { StoredVapidKeysUnreadableError } from './push/vapid.js';

/**
 * `npm start` (through scripts/start.mjs): validate the configuration, take the
 * embedded database's lock, open and migrate the database, serve, and shut
 * down cleanly on SIGTERM / SIGINT.
 */

function fail(message: string): never {
  console.warn(message);
  process.exit(1);
}

function describeDatabase(config: Config) {
  if (config.databaseUrl) {
    const u = new URL(config.databaseUrl);
    return `Postgres at ${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  }
  return `embedded Postgres (PGlite) in ${path.resolve(config.dataDir)}`;
}

/** The demo logins that exist in this database (the seed skips a database that already had accounts). */
async function printDemoLogins(db: Kysely<Database>, baseUrl: string) {
  const present = await demoAccountsPresent(db);
  const accounts = DEMO_ACCOUNTS.filter((a) => present.has(a.email));
  if (accounts.length === 0) {
    console.log('SEED_DEMO is on, but the database already had accounts, so no demo content was added.');
    return;
  }
  console.log(`Demo logins (SEED_DEMO is on; clients sign in at ${baseUrl}/login, dietitians at ${baseUrl}/admin):`);
  for (const a of accounts) console.log(`  ${a.role.padEnd(6)}  ${a.email.padEnd(24)}  ${a.password.padEnd(18)}  ${a.name}`);
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }

  // PGlite allows one process per data directory: hold it for the life of the server.
  let lock: DataDirLock | null = null;
  if (!config.databaseUrl) {
    try {
      lock = acquireDataDirLock(config.dataDir, { holder: 'server', host: config.host });
    } catch (err) {
      if (err instanceof DataDirLockedError) fail(`Poshan cannot start: ${err.message}`);
      throw err;
    }
  }

  // Before the database opens, so its first queries are traced too (nothing is loaded when unset).
  await startTracing(config);
  const dbHandle = await openDatabase(config);
  const deps = await createDeps(config, dbHandle).catch((err: unknown) => {
    if (err instanceof LocalFilesElsewhereError || err instanceof StoredVapidKeysUnreadableError)
      fail(`Poshan cannot start: ${err.message}`);
    throw err;
  });
  const internalToken = lock ? writeInternalToken(config.dataDir) : undefined;
  if (internalToken) process.once('exit', () => removeInternalToken(config.dataDir));
  const server = await listen(deps, { internalToken }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE')
      fail(`Poshan cannot start: port ${config.port} on ${config.host} is already in use. Stop the other program or set PORT.`);
    throw err;
  });
  lock?.update({ port: server.port, host: config.host });

  const banner = [`Poshan is running at ${server.url}`, `Database: ${describeDatabase(config)}`];
  if (config.publicUrl) banner.push(`Public address: ${config.publicUrl}`);
  console.log(banner.join('\n'));
  pdfPool().warm();
  if (config.seedDemo) await printDemoLogins(deps.db, server.url);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: closing connections and the database…`);
    // A safety net only: server.close() itself cuts off what outlives the grace period.
    const limitMs = config.shutdownDrainDelayMs + ACCEPT_QUEUE_MAX_MS + config.shutdownGraceMs + 5_000;
    setTimeout(() => {
      console.warn(`Shutdown took longer than ${limitMs / 1000} s; exiting anyway.`);
      process.exit(1);
    }, limitMs).unref();
    await server.close();
    await dbHandle.close();
    await stopTracing().catch((err) => console.warn(`Traces not flushed: ${err instanceof Error ? err.message : String(err)}`));
    if (lock) {
      removeInternalToken(config.dataDir);
      lock.release();
    }
    console.log('Poshan stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  fail(`Poshan failed to start: ${err instanceof Error ? err.message : String(err)}`);
});
