import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { describeError } from '../errors.js';
import type { Logger } from '../logger.js';
import { keptJson } from './json-text.js';

/** The spec's answer shape for every JSON path outside tRPC: `{ status, message, data?, ...extra }`, `status` equal to the HTTP status. */
export function envelope(c: Context, status: number, message: string, data?: unknown, extra: Record<string, unknown> = {}) {
  // The text JSON.stringify would make of { status, message, data, ...extra }, with kept JSON spliced in (json-text.ts).
  const head = `{"status":${JSON.stringify(status)},"message":${JSON.stringify(message)}`;
  let tail = '';
  for (const [key, value] of Object.entries(extra)) {
    if (key === 'status' || key === 'message' || key === 'data') continue;
    const valueText = JSON.stringify(value);
    if (valueText !== undefined) tail += `,${JSON.stringify(key)}:${valueText}`;
  }
  tail += '}';
  const dataJson = data === undefined ? undefined : keptJson(data);
  // Kept bytes are copied once into the body, never decoded or encoded again; anything else stays text.
  const body =
    typeof dataJson === 'object'
      ? Buffer.concat([Buffer.from(`${head},"data":`), ...dataJson, Buffer.from(tail)])
      : `${head}${dataJson === undefined ? '' : `,"data":${dataJson}`}${tail}`;
  // With its length known, the compression middleware passes a small answer on without reading it.
  return c.body(body, status as ContentfulStatusCode, {
    'Content-Type': 'application/json',
    'Content-Length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength),
  });
}

/**
 * Any thrown error as an envelope: the status and message a person can act on,
 * field errors in `data.fieldErrors`, `Retry-After` when there is one. A 5xx
 * is logged with its cause (`what` names the path); its details never leave.
 */
export function errorEnvelope(c: Context, error: unknown, opts: { logger: Logger; what: string; reqId?: string }) {
  const d = describeError(error);
  if (d.status >= 500) opts.logger.error(`${opts.what} failed`, { reqId: opts.reqId, error: String((error as Error)?.cause ?? error) });
  if (d.retryAfterSeconds) c.header('Retry-After', String(d.retryAfterSeconds));
  return envelope(c, d.status, d.message, d.fieldErrors ? { fieldErrors: d.fieldErrors } : undefined);
}
