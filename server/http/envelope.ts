import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { describeError } from '../errors.js';
import type { Logger } from '../logger.js';
import { jsonText } from './json-text.js';

/** The spec's answer shape for every JSON path outside tRPC: `{ status, message, data?, ...extra }`, `status` equal to the HTTP status. */
export function envelope(c: Context, status: number, message: string, data?: unknown, extra: Record<string, unknown> = {}) {
  // The text JSON.stringify would make of { status, message, data, ...extra }, with kept texts spliced in (json-text.ts).
  let text = `{"status":${JSON.stringify(status)},"message":${JSON.stringify(message)}`;
  const dataText = data === undefined ? undefined : jsonText(data);
  if (dataText !== undefined) text += `,"data":${dataText}`;
  for (const [key, value] of Object.entries(extra)) {
    if (key === 'status' || key === 'message' || key === 'data') continue;
    const valueText = JSON.stringify(value);
    if (valueText !== undefined) text += `,${JSON.stringify(key)}:${valueText}`;
  }
  text += '}';
  // With its length known, the compression middleware passes a small answer on without reading it.
  return c.body(text, status as ContentfulStatusCode, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
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
