import { existsSync } from 'node:fs';
import path from 'node:path';
import { trpcServer } from '@hono/trpc-server';
import { Hono } from 'hono';
import { sql } from 'kysely';
import { imageDecodes } from './attachments/images.js';
import { hashQueueSaturated } from './auth/password.js';
import type { AppDeps } from './deps.js';
import { DISK_FULL_RETRY_AFTER_SECONDS } from './db/disk-full.js';
import { OUTAGE_RETRY_AFTER_SECONDS } from './errors.js';
import type { Lifecycle } from './http/lifecycle.js';
import { dietPlanPdfRoutes } from './diet-plan/http.js';
import { invoiceFileRoutes } from './payments/http.js';
import { bodyLimits } from './http/body-limit.js';
import { clientFiles } from './http/client-files.js';
import { noStoreByDefault } from './http/api-answers.js';
import { compressResponses } from './http/compression.js';
import { envelope } from './http/envelope.js';
import { securityHeaders } from './http/security-headers.js';
import { internalRoutes } from './internal/routes.js';
import { mountRestRoutes } from './rest/mount.js';
import { openApiDocument } from './rest/openapi.js';
import { restRoutes } from './rest/routes.js';
import { metricsRoute, observeRequests, requestRecord } from './observability/http.js';
import { bearerToken, createContextFromToken, httpRequestMeta } from './trpc/context.js';
import { MAX_BATCH_SIZE, refuseBatchedAuthCalls } from './trpc/batch-policy.js';
import { retryAfterMeta } from './trpc/retry-after.js';
import { signOutHeaders } from './auth/sign-out-headers.js';
import { appRouter } from './trpc/root.js';

/** How soon a proxy may ask again after a "busy" readiness answer. */
const SATURATED_RETRY_AFTER_SECONDS = 5;

/** Every procedure's path ('auth.signIn', ...): the only tRPC paths the metrics label. */
const procedurePaths: ReadonlySet<string> = new Set(Object.keys(appRouter._def.procedures));

/** The HTTP side of the app: health, tRPC, REST and the built client on one Hono app. */
export function createApp(deps: AppDeps, opts: { serveClient?: boolean; internalToken?: string; lifecycle?: Lifecycle } = {}) {
  const app = new Hono();
  app.use('*', observeRequests(deps, { procedures: procedurePaths }));
  app.use('*', securityHeaders({ publicUrl: deps.config.publicUrl }));
  app.use('*', compressResponses());
  app.route('/metrics', metricsRoute(deps));
  app.use('*', bodyLimits());

  app.get('/healthz', (c) => envelope(c, 200, 'ok'));
  app.get('/readyz', async (c) => {
    // While draining, a proxy must stop sending new requests here.
    if (opts.lifecycle?.draining) return envelope(c, 503, 'This instance is shutting down.');
    // Work waiting on the thread pool (photos to decode, passwords to check) would make every new request here wait too.
    const saturated = imageDecodes.saturated ? 'photos to decode' : hashQueueSaturated() ? 'password checks' : null;
    if (saturated) {
      c.header('Retry-After', String(SATURATED_RETRY_AFTER_SECONDS));
      return envelope(c, 503, `This instance is busy: its queue of ${saturated} is full.`);
    }
    try {
      await sql`select 1`.execute(deps.db);
      // An instance that cannot hear NOTIFY would miss feed events and session revocations.
      if (!deps.dbHandle.listening()) throw new Error('the LISTEN connection is down');
      // A skewed clock is worth a warning in the log, not taking the instance out of service.
      await deps.clockSkew.checkOccasionally();
      const cannotWrite = await deps.dbHandle.writes.problem();
      if (cannotWrite) {
        c.header('Retry-After', String(DISK_FULL_RETRY_AFTER_SECONDS));
        return envelope(c, 503, cannotWrite);
      }
      return envelope(c, 200, 'ready', { database: deps.dbHandle.kind });
    } catch (err) {
      deps.logger.warn('readiness check failed', { error: (err as Error).message });
      c.header('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS));
      return envelope(c, 503, 'The database is not answering.');
    }
  });

  app.use('/trpc/*', noStoreByDefault());
  app.use('/api/*', noStoreByDefault());
  app.use(
    '/trpc/*',
    trpcServer({
      endpoint: '/trpc',
      router: appRouter,
      maxBatchSize: MAX_BATCH_SIZE,
      responseMeta: (opts) => ({ headers: { ...retryAfterMeta(opts).headers, ...signOutHeaders(opts.info) } }),
      createContext: (opts, c) => {
        const record = requestRecord(c);
        if (record) record.procedures = opts.info.calls.map((call) => call.path);
        refuseBatchedAuthCalls(opts.info);
        return createContextFromToken(deps, bearerToken(c.req.header('authorization')), httpRequestMeta(c, deps));
      },
      onError: ({ error, path: procedure, ctx }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') {
          deps.logger.error(`tRPC ${procedure ?? '?'} failed`, { reqId: ctx?.meta.requestId, error: String(error.cause ?? error) });
        }
      },
    }),
  );

  const api = new Hono();
  api.get('/openapi.json', (c) => c.json(openApiDocument(restRoutes, { publicUrl: deps.config.publicUrl })));
  mountRestRoutes(api, deps, restRoutes);
  api.all('*', (c) => envelope(c, 404, `There is no API path ${c.req.method} ${c.req.path}.`));
  app.route('/api/diet-plan', dietPlanPdfRoutes(deps)); // binary signed-link downloads, ahead of the JSON API's catch-all
  app.route('/api/invoice-files', invoiceFileRoutes(deps)); // the same, for invoice and receipt PDFs
  app.route('/api', api);

  // Local commands reach the server that holds the embedded database (loopback + secret).
  if (opts.internalToken) app.route('/internal', internalRoutes(deps, opts.internalToken));

  const { clientDistDir } = deps.config;
  if (opts.serveClient !== false && existsSync(path.join(clientDistDir, 'index.html'))) {
    app.route('/', clientFiles(clientDistDir, { publicUrl: deps.config.publicUrl }));
  }
  return app;
}
