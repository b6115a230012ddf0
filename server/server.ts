import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import { connectPglite, connectPostgres } from './db/connect.js';
import type { DbHandle } from './db/index.js';
import { migrateToLatest } from './db/migrate.js';
import type { AppDeps } from './deps.js';
import type { Config } from './env.js';
import { createLogger } from './logger.js';
import { createMailer } from './mail/mailer.js';
import { createFeedBus } from './realtime/feed-bus.js';
import { attachTrpcWebSocket } from './realtime/ws.js';
import { resolveAppSecret } from './secret.js';
import { syncCountries } from './countries/sync.js';
import { seedDemo } from './seed/demo.js';

export async function openDatabase(config: Config): Promise<DbHandle> {
  return config.databaseUrl ? connectPostgres(config.databaseUrl) : connectPglite(config.dataDir);
}

/** Builds every dependency on an open database: migrations, reference data, realtime. */
export async function createDeps(config: Config, dbHandle: DbHandle, secret = resolveAppSecret(config)): Promise<AppDeps> {
  const logger = createLogger(config.logLevel);
  await migrateToLatest(dbHandle.db);
  await syncCountries(dbHandle.db);
  if (config.seedDemo) await seedDemo({ db: dbHandle.db, logger });
  const feedBus = createFeedBus(dbHandle, (err) => logger.warn('bad feed notification', { error: err.message }));
  await feedBus.start();
  return {
    config,
    secret,
    db: dbHandle.db,
    dbHandle,
    logger,
    mailer: createMailer({ db: dbHandle.db, logger, smtpUrl: config.smtpUrl, from: config.mailFrom }),
    feedBus,
  };
}

export type RunningServer = { url: string; port: number; deps: AppDeps; httpServer: Server; close(): Promise<void> };

/** Serves HTTP (health, REST, tRPC, client) and tRPC WebSocket on one port. */
export async function listen(
  deps: AppDeps,
  opts: { port?: number; host?: string; serveClient?: boolean; internalToken?: string } = {},
): Promise<RunningServer> {
  const app = createApp(deps, { serveClient: opts.serveClient, internalToken: opts.internalToken });
  const host = opts.host ?? deps.config.host;
  const httpServer = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: opts.port ?? deps.config.port, hostname: host }, () => resolve(s as Server));
    (s as Server).once('error', reject);
  });
  const ws = attachTrpcWebSocket(httpServer, deps);
  const { port } = httpServer.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    deps,
    httpServer,
    close() {
      closing ??= (async () => {
        await ws.close();
        await new Promise<void>((resolve) => {
          httpServer.close(() => resolve());
          httpServer.closeAllConnections?.();
        });
        await deps.feedBus.stop();
        await deps.mailer.drain();
      })();
      return closing;
    },
  };
}
