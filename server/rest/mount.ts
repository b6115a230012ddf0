import type { Hono } from 'hono';
import type { AppDeps } from '../deps.js';
import { describeError } from '../errors.js';
import { bearerToken, createContextFromToken } from '../trpc/context.js';
import { createCaller } from '../trpc/root.js';
import { clientIp } from '../http/client-ip.js';
import type { RestRoute } from './route.js';

export type Envelope = { status: number; message: string; data?: unknown; [extra: string]: unknown };

/** Mounts REST routes under the given Hono app (already based at /api). */
export function mountRestRoutes(app: Hono, deps: AppDeps, routes: RestRoute[]) {
  const expose = deps.config.nodeEnv !== 'production';
  for (const route of routes) {
    app.on(route.method.toUpperCase(), route.path, async (c) => {
      try {
        let body: unknown;
        if (route.method !== 'get') {
          const text = await c.req.text();
          if (text.trim() !== '') {
            try {
              body = JSON.parse(text);
            } catch {
              return c.json<Envelope>({ status: 400, message: 'The request body must be valid JSON.' }, 400);
            }
          }
        }
        const ctx = await createContextFromToken(deps, bearerToken(c.req.header('authorization')), {
          ip: clientIp(c, deps.config.trustProxy),
          userAgent: c.req.header('user-agent') ?? '',
        });
        const result = await route.handle({
          caller: createCaller(ctx),
          body: body ?? {},
          query: c.req.query(),
          params: c.req.param() as Record<string, string>,
          c,
        });
        const status = result.status ?? route.successStatus ?? 200;
        const envelope: Envelope = { status, message: result.message };
        if (result.data !== undefined) envelope.data = result.data;
        for (const [key, value] of Object.entries(result.extra ?? {})) {
          if (!['status', 'message', 'data'].includes(key)) envelope[key] = value;
        }
        return c.json(envelope, status);
      } catch (error) {
        const d = describeError(error, expose);
        if (d.status >= 500)
          deps.logger.error(`REST ${route.method.toUpperCase()} ${route.path} failed`, { error: String((error as Error)?.cause ?? error) });
        if (d.retryAfterSeconds) c.header('Retry-After', String(d.retryAfterSeconds));
        const envelope: Envelope = { status: d.status, message: d.message };
        if (d.fieldErrors) envelope.data = { fieldErrors: d.fieldErrors };
        return c.json(envelope, d.status as 400);
      }
    });
  }
}
