import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { describeError } from '../errors.js';
import type { Logger } from '../logger.js';

/** The spec's answer shape for every JSON path outside tRPC: `status` equals the HTTP status. */
export type Envelope = { status: number; message: string; data?: unknown; [extra: string]: unknown };

export function envelope(c: Context, status: number, message: string, data?: unknown, extra: Record<string, unknown> = {}) {
  const body: Envelope = { status, message };
  if (data !== undefined) body.data = data;
  for (const [key, value] of Object.entries(extra)) {
    if (!['status', 'message', 'data'].includes(key)) body[key] = value;
  }
  return c.json(body, status as ContentfulStatusCode);
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
