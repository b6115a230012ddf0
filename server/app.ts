import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { trpcServer } from '@hono/trpc-server';
import { Hono } from 'hono';
import { sql } from 'kysely';
import type { AppDeps } from './deps.js';
import { dietPlanPdfRoutes } from './diet-plan/http.js';
import { clientIp } from './http/client-ip.js';
import { securityHeaders } from './http/security-headers.js';
import { internalRoutes } from './internal/routes.js';
import { mountRestRoutes } from './rest/mount.js';
import { openApiDocument } from './rest/openapi.js';
import { restRoutes } from './rest/routes.js';
import { bearerToken, createContextFromToken } from './trpc/context.js';
import { appRouter } from './trpc/root.js';

export const clientDistDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');

/** The HTTP side of the app: health, tRPC, REST and the built client on one Hono app. */
export function createApp(deps: AppDeps, opts: { serveClient?: boolean; internalToken?: string } = {}) {
  const app = new Hono();
  app.use('*', securityHeaders());

  app.get('/healthz', (c) => c.json({ status: 200, message: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await sql`select 1`.execute(deps.db);
      return c.json({ status: 200, message: 'ready', data: { database: deps.dbHandle.kind } });
    } catch (err) {
      deps.logger.warn('readiness check failed', { error: (err as Error).message });
      return c.json({ status: 503, message: 'The database is not answering.' }, 503);
    }
  });

  app.use(
    '/trpc/*',
    trpcServer({
      endpoint: '/trpc',
      router: appRouter,
      createContext: (_opts, c) =>
        createContextFromToken(deps, bearerToken(c.req.header('authorization')), {
          ip: clientIp(c, deps.config.trustProxy),
          userAgent: c.req.header('user-agent') ?? '',
        }),
      onError: ({ error, path: procedure }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') {
          deps.logger.error(`tRPC ${procedure ?? '?'} failed`, { error: String(error.cause ?? error) });
        }
      },
    }),
  );

  const api = new Hono();
  api.get('/openapi.json', (c) => c.json(openApiDocument(restRoutes, { publicUrl: deps.config.publicUrl })));
  mountRestRoutes(api, deps, restRoutes);
  api.all('*', (c) => c.json({ status: 404, message: `There is no API path ${c.req.method} ${c.req.path}.` }, 404));
  app.route('/api/diet-plan', dietPlanPdfRoutes(deps)); // binary signed-link downloads, ahead of the JSON API's catch-all
  app.route('/api', api);

  // Local commands reach the server that holds the embedded database (loopback + secret).
  if (opts.internalToken) app.route('/internal', internalRoutes(deps, opts.internalToken));

  if (opts.serveClient !== false && existsSync(path.join(clientDistDir, 'index.html'))) {
    const root = path.relative(process.cwd(), clientDistDir) || '.';
    app.use('/assets/*', serveStatic({ root, onFound: (_p, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable') }));
    app.use('*', serveStatic({ root }));
    // SPA: every other GET is a client route (wouter renders the 404 page itself).
    app.get('*', serveStatic({ root, path: 'index.html' }));
  }
  return app;
}
