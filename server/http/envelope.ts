import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { describeError } from '../errors.js';
import type { Logger } from '../logger.js';
import { isKept, keptJson } from './json-text.js';

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
  const body = bodyOf(head, data, tail);
  // With its length known, the compression middleware passes a small answer on without reading it.
  const res = c.body(body, status as ContentfulStatusCode, {
    'Content-Type': 'application/json',
    'Content-Length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength),
  });
  if (typeof body !== 'string' && isKept(data)) keptAnswers.set(res, body);
  return res;
}

/** Responses whose body is a kept answer (made once around a kept value, sent again as it is). */
const keptAnswers = new WeakMap<Response, Buffer<ArrayBuffer>>();

/**
 * The kept bytes this response carries, if it is a kept answer and still the
 * response as the envelope made it: the compression middleware compresses
 * such bytes once (compression.ts), not for every request.
 */
export const keptAnswerOf = (res: Response) => keptAnswers.get(res);

/** The last body made around each kept value, with the head and tail it was made with. */
const keptBodies = new WeakMap<object, { head: string; tail: string; body: Buffer<ArrayBuffer> }>();

/**
 * The answer's bytes or text. Kept bytes are copied once into the body, never decoded or encoded
 * again; around a kept value (one that never changes), the same head and tail give the same body,
 * which is made once and sent as it is. Anything else stays text.
 */
function bodyOf(head: string, data: unknown, tail: string): Buffer<ArrayBuffer> | string {
  if (isKept(data)) {
    const last = keptBodies.get(data as object);
    if (last && last.head === head && last.tail === tail) return last.body;
  }
  const dataJson = data === undefined ? undefined : keptJson(data);
  if (typeof dataJson !== 'object') return `${head}${dataJson === undefined ? '' : `,"data":${dataJson}`}${tail}`;
  const body = Buffer.concat([Buffer.from(`${head},"data":`), ...dataJson, Buffer.from(tail)]);
  if (isKept(data)) keptBodies.set(data as object, { head, tail, body });
  return body;
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
  const data = d.fieldErrors || d.details ? { ...d.details, ...(d.fieldErrors ? { fieldErrors: d.fieldErrors } : {}) } : undefined;
  return envelope(c, d.status, d.message, data);
}
