import type { Server } from 'node:http';
import type { DestinationStream } from 'pino';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import { createClockSkewCheck } from './db/clock-skew.js';
import { createLiveSessions } from './auth/live-sessions.js';
import { connectPglite, connectPostgres } from './db/connect.js';
import type { DbHandle } from './db/index.js';
import { migrateToLatest } from './db/migrate.js';
import { withStartupLock } from './db/startup-lock.js';
import type { AppDeps } from './deps.js';
import type { Config } from './env.js';
import { createLifecycle } from './http/lifecycle.js';
import { createLogger } from './logger.js';
import { createMailer, type MailSink } from './mail/mailer.js';
import { createMetrics } from './observability/metrics.js';
import { registerServerMetrics } from './observability/server-metrics.js';
import { startFollowUps } from './check-in/start.js';
import { scheduleAppointmentReminders } from './appointments/reminders.js';
import { createMessagesBus } from './messages/events.js';
import { createInvoicesBus } from './payments/events.js';
import { createJournalBus } from './journal/events.js';
import { createCallsBus } from './calls/events.js';
import { createAppointmentsBus } from './appointments/events.js';
import { careLoopSource } from './check-in/care-loop.js';
import { scheduleMessageNotices } from './messages/notify.js';
import { keepFeedPagesFresh } from './feed/freshness.js';
import { createFeedPageCache } from './feed/page-cache.js';
import { createLiveChannel } from './realtime/live-channel.js';
import { createFeedBus } from './feed/bus.js';
import { attachTrpcWebSocket } from './realtime/ws.js';
import { resolveAppSecret } from './secret.js';
import { syncCountries } from './countries/sync.js';
import { seedDemo } from './seed/demo.js';
import { scheduleAttachmentCleanup } from './attachments/cleanup.js';
import { openStorage } from './storage/index.js';
import { schedulePush } from './push/send.js';
import { resolveVapidKeys } from './push/vapid.js';

export async function openDatabase(config: Config): Promise<DbHandle> {
  return config.databaseUrl
    ? connectPostgres(config.databaseUrl, undefined, { namedStatements: config.namedStatements })
    : connectPglite(config.dataDir);
}

/** Builds every dependency on an open database: migrations, reference data, realtime. */
export async function createDeps(
  config: Config,
  dbHandle: DbHandle,
  secret = resolveAppSecret(config),
  opts: {
    logDestination?: DestinationStream;
    clock?: () => Date;
    mailSink?: MailSink;
    /** This process's clock as tokens are stamped with it (tests fake an offset). */
    processNow?: () => number;
  } = {},
): Promise<AppDeps> {
  const metrics = createMetrics({ enabled: Boolean(config.metricsToken) });
  const logger = createLogger({
    level: config.logLevel,
    format: config.logFormat,
    onError: metrics.errorLogged,
    destination: opts.logDestination,
  });
  registerServerMetrics(metrics, dbHandle);
  const feedBus = createFeedBus(dbHandle, (err) => logger.warn('bad feed notification', { error: err.message }), { metrics });
  const feedPages = createFeedPageCache({ listening: () => dbHandle.listening() });
  // What forgets kept feed pages, named in one place (feed/freshness.ts).
  await keepFeedPagesFresh(feedPages, feedBus, dbHandle);
  const mailer = createMailer({ db: dbHandle.db, logger, smtpUrl: config.smtpUrl, from: config.mailFrom, metrics, sink: opts.mailSink });
  const clock = opts.clock ?? (() => new Date());
  // Before any start-up work: an instance that cannot share its files with the others stops here.
  const storage = await openStorage(config.storage, dbHandle, logger);
  const { followUpBus, jobs, vapid } = await withStartupLock(dbHandle, async () => {
    await migrateToLatest(dbHandle.db);
    // After the migrations (its table is one of theirs), before anything is pushed.
    const vapid = await resolveVapidKeys(config, dbHandle.db, secret, logger);
    await syncCountries(dbHandle.db);
    if (config.seedDemo) await seedDemo({ db: dbHandle.db, storage, logger }, { now: clock() });
    await feedBus.start();
    const started = await startFollowUps({ config, dbHandle, logger, mailer, metrics, clock });
    await schedulePush(started.jobs, { db: dbHandle.db, logger, vapid, policy: config.push });
    await scheduleMessageNotices(started.jobs, { db: dbHandle.db, mailer, logger, config, jobs: started.jobs }, clock);
    await scheduleAttachmentCleanup(started.jobs, { db: dbHandle.db, storage, logger, clock });
    await scheduleAppointmentReminders(started.jobs, { db: dbHandle.db, mailer, logger, config }, clock);
    return { ...started, vapid };
  });
  const messagesBus = createMessagesBus(dbHandle, (err) => logger.warn('bad messages notification', { error: err.message }));
  await messagesBus.start();
  const invoicesBus = createInvoicesBus(dbHandle, (err) => logger.warn('bad invoices notification', { error: err.message }));
  await invoicesBus.start();
  const journalBus = createJournalBus(dbHandle, (err) => logger.warn('bad journal notification', { error: err.message }));
  await journalBus.start();
  const callsBus = createCallsBus(dbHandle, (err) => logger.warn('bad call notification', { error: err.message }));
  await callsBus.start();
  const appointmentsBus = createAppointmentsBus(dbHandle, (err) => logger.warn('bad appointments notification', { error: err.message }));
  await appointmentsBus.start();
  const sessions = createLiveSessions(dbHandle, logger);
  await sessions.start();
  const clockSkew = createClockSkewCheck(dbHandle.db, logger, { now: opts.processNow });
  await clockSkew.check();
  return {
    config,
    secret,
    db: dbHandle.db,
    dbHandle,
    logger,
    mailer,
    feedBus,
    feedLive: createLiveChannel(feedBus),
    feedPages,
    metrics,
    followUpBus,
    // The care loop: follow-up notes, and what messages, the journal, invoices and sessions mean for the queue and the Overview.
    followUpLive: createLiveChannel(
      careLoopSource({
        db: dbHandle.db,
        followUps: followUpBus,
        messages: messagesBus,
        journal: journalBus,
        invoices: invoicesBus,
        appointments: appointmentsBus,
      }),
    ),
    messagesBus,
    messagesLive: createLiveChannel(messagesBus),
    invoicesBus,
    invoicesLive: createLiveChannel(invoicesBus),
    journalBus,
    journalLive: createLiveChannel(journalBus),
    callsBus,
    callsLive: createLiveChannel(callsBus),
    appointmentsBus,
    appointmentsLive: createLiveChannel(appointmentsBus),
    jobs,
    clock,
    sessions,
    clockSkew,
    storage,
    vapid,
  };
}

export type RunningServer = { url: string; port: number; deps: AppDeps; httpServer: Server; close(): Promise<void> };

/** Serves HTTP (health, REST, tRPC, client) and tRPC WebSocket on one port. */
export async function listen(
  deps: AppDeps,
  opts: { port?: number; host?: string; serveClient?: boolean; internalToken?: string } = {},
): Promise<RunningServer> {
  const { config } = deps;
  const lifecycle = createLifecycle();
  const app = createApp(deps, { serveClient: opts.serveClient, internalToken: opts.internalToken, lifecycle });
  const host = opts.host ?? config.host;
  const serverOptions = {
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    // Node checks both timeouts on this interval (30 s by default, which would double them).
    connectionsCheckingInterval: Math.min(1000, Math.ceil(config.headersTimeoutMs / 4)),
  };
  const httpServer = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: opts.port ?? config.port, hostname: host, serverOptions }, () => resolve(s as Server));
    (s as Server).once('error', reject);
  });
  lifecycle.track(httpServer);
  const ws = attachTrpcWebSocket(httpServer, deps);
  deps.metrics.setSocketCount(() => ws.wss.clients.size);
  const { port } = httpServer.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    deps,
    httpServer,
    /**
     * Graceful stop: readiness turns 503 (for the drain delay, still serving),
     * then no new connections once those queued are accepted; WebSocket clients are told to reconnect
     * elsewhere; in-flight requests get the grace period to finish; then
     * every connection is closed and realtime and mail wind down.
     */
    close() {
      closing ??= (async () => {
        lifecycle.startDraining();
        if (config.shutdownDrainDelayMs > 0) await new Promise((r) => setTimeout(r, config.shutdownDrainDelayMs));
        const closed = new Promise<void>((resolve) => httpServer.once('close', () => resolve()));
        await lifecycle.stopAccepting(httpServer);
        await ws.close();
        if (!(await lifecycle.idle(config.shutdownGraceMs))) {
          deps.logger.warn(`shutdown: ${lifecycle.inFlight} request(s) still running after ${config.shutdownGraceMs} ms were cut off`);
        }
        httpServer.closeAllConnections();
        await closed;
        httpServer.close(); // not listening any more: this only stops http.Server's timeout checks
        await deps.feedBus.stop();
        await deps.jobs.stop();
        await deps.followUpBus.stop();
        await deps.messagesBus.stop();
        await deps.invoicesBus.stop();
        await deps.journalBus.stop();
        await deps.callsBus.stop();
        await deps.appointmentsBus.stop();
        await deps.sessions.stop();
        await deps.mailer.drain();
        await deps.storage.close();
      })();
      return closing;
    },
  };
}
