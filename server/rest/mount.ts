import type { Hono } from 'hono';
import type { AppDeps } from '../deps.js';
import { envelope, errorEnvelope } from '../http/envelope.js';
import { readJsonBody } from '../http/json-body.js';
import { requestRecord } from '../observability/http.js';
import { bearerToken, createContextFromToken, httpRequestMeta } from '../trpc/context.js';
import { createCaller } from '../trpc/root.js';
import type { RestRoute } from './route.js';

/** Mounts REST routes under the given Hono app (already based at /api). */
export function mountRestRoutes(app: Hono, deps: AppDeps, routes: RestRoute[]) {
  for (const route of routes) {
    app.on(route.method.toUpperCase(), route.path, async (c) => {
      try {
        // A multipart upload reads its own body (server/attachments/rest.ts); a signed webhook gets its exact bytes.
        const rawBody = route.request?.raw ? new Uint8Array(await c.req.arrayBuffer()) : undefined;
        const body = route.method === 'get' || route.request?.files || rawBody ? undefined : await readJsonBody(c);
        const ctx = await createContextFromToken(deps, bearerToken(c.req.header('authorization')), httpRequestMeta(c, deps));
        const result = await route.handle({
          caller: createCaller(ctx),
          // No body at all reads as an empty one; a JSON null is a body, and not an object (refused where read).
          body: body === undefined ? {} : body,
          query: c.req.query(),
          params: c.req.param() as Record<string, string>,
          c,
          rawBody,
          ctx,
        });
        if (result.response) return result.response;
        return envelope(c, result.status ?? route.successStatus ?? 200, result.message, result.data, result.extra);
      } catch (error) {
        return errorEnvelope(c, error, {
          logger: deps.logger,
          what: `REST ${route.method.toUpperCase()} ${route.path}`,
          reqId: requestRecord(c)?.id,
        });
      }
    });
  }
}
