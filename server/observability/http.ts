import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { Hono } from 'hono';
import { routePath } from 'hono/route';
import type { AppDeps } from '../deps.js';
import { envelope } from '../http/envelope.js';
import { defaultResponseHeaders } from '../http/response-headers.js';

/**
 * What the access log and the request metrics know about one HTTP request.
 * The tRPC and REST contexts fill in the user and the procedures.
 */
export type RequestRecord = {
  id: string;
  userId: number | null;
  /** tRPC procedure paths of this request (a batch has several). */
  procedures: string[] | null;
};

declare module 'hono' {
  interface ContextVariableMap {
    request: RequestRecord;
  }
}

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** An incoming id is kept only when it is short and plain (it goes into logs and headers). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFrom(incoming: string | string[] | null | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && SANE_REQUEST_ID.test(value) ? value : randomUUID();
}

export function requestIdOfHeaders(headers: IncomingHttpHeaders): string {
  return requestIdFrom(headers['x-request-id']);
}

/** The request record of this Hono request (set by observeRequests). */
export function requestRecord(c: Context): RequestRecord | undefined {
  return c.get('request');
}

/** The label of every tRPC path that names no procedure, and of every method HTTP does not define. */
export const UNKNOWN_LABEL = 'unknown';
/** The methods a label may carry; anything else counts as UNKNOWN_LABEL (a caller chooses the method). */
const LABELLED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The route: the procedure path(s) for tRPC, the matched pattern otherwise. */
function routeOf(c: Context, rec: RequestRecord): string {
  if (rec.procedures) return `/trpc/${rec.procedures.join(',')}`;
  const pattern = routePath(c); // after next(): the handler that answered
  return pattern === '*' || pattern === '/*' ? '(static)' : pattern;
}

/**
 * The metrics' labels come from what a caller sends, and every distinct value
 * is a series kept until the process ends: a tRPC path is a label only when it
 * names a procedure, and a method only when HTTP defines it. Route patterns
 * and statuses come from the code, so they are bounded already.
 */
function recordMetrics(
  metrics: AppDeps['metrics'],
  c: Context,
  rec: RequestRecord,
  procedures: ReadonlySet<string>,
  status: number,
  seconds: number,
) {
  const method = LABELLED_METHODS.has(c.req.method) ? c.req.method : UNKNOWN_LABEL;
  if (!rec.procedures) return metrics.httpRequest(method, routeOf(c, rec), status, seconds);
  for (const p of rec.procedures) metrics.httpRequest(method, procedures.has(p) ? `/trpc/${p}` : UNKNOWN_LABEL, status, seconds);
}

/**
 * First middleware: a request id (a sane incoming X-Request-Id, else a new
 * one) echoed in the response; then one log line and one histogram sample
 * per request, by route pattern, never the raw path with ids in it.
 */
export function observeRequests(deps: Pick<AppDeps, 'logger' | 'metrics'>, opts: { procedures: ReadonlySet<string> }): MiddlewareHandler {
  const { logger, metrics } = deps;
  return async (c, next) => {
    const start = performance.now();
    const rec: RequestRecord = { id: requestIdFrom(c.req.header('x-request-id')), userId: null, procedures: null };
    c.set('request', rec);
    await next();
    const seconds = (performance.now() - start) / 1000;
    defaultResponseHeaders(c, [[REQUEST_ID_HEADER, rec.id]]);
    const status = c.res.status;
    const method = c.req.method;
    if (metrics.enabled) recordMetrics(metrics, c, rec, opts.procedures, status, seconds);
    const fields = {
      reqId: rec.id,
      method,
      route: routeOf(c, rec),
      status,
      ms: Math.round(seconds * 10_000) / 10,
      userId: rec.userId ?? undefined,
    };
    if (status >= 500) logger.access('warn', 'request failed', fields);
    else logger.access('info', 'request', fields);
  };
}

function sameSecret(a: string, b: string): boolean {
  // Hash both so the comparison takes the same time whatever the lengths.
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/**
 * GET /metrics: 404 unless METRICS_TOKEN is set; then the token is required
 * as a bearer token (401 without it or with another one).
 */
export function metricsRoute(deps: Pick<AppDeps, 'config' | 'metrics'>) {
  const app = new Hono();
  app.get('/', async (c) => {
    const token = deps.config.metricsToken;
    if (!token || !deps.metrics.enabled) return envelope(c, 404, 'Metrics are off: set METRICS_TOKEN to turn them on.');
    const presented = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization')?.trim() ?? '')?.[1];
    if (!presented || !sameSecret(presented, token)) {
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return envelope(c, 401, 'Send the METRICS_TOKEN as a bearer token to read the metrics.');
    }
    const { contentType, body } = await deps.metrics.render();
    c.header('Cache-Control', 'no-store');
    return c.body(body, 200, { 'Content-Type': contentType });
  });
  return app;
}
