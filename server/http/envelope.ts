import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { describeError } from '../errors.js';
import type { Logger } from '../logger.js';
import { type PreparedAnswer, jsonChunks, preparedJsonOf } from './prepared-json.js';

declare module 'hono' {
  interface ContextVariableMap {
    /**
     * The envelope made around a prepared value, with the response that carries it: the
     * compression middleware compresses such an answer once per encoding (compression.ts).
     */
    preparedAnswer: { response: Response; answer: PreparedAnswer };
  }
}

/** The spec's answer shape for every JSON path outside tRPC: `{ status, message, data?, ...extra }`, `status` equal to the HTTP status. */
export function envelope(c: Context, status: number, message: string, data?: unknown, extra: Record<string, unknown> = {}) {
  // The text JSON.stringify would make of { status, message, data, ...extra }, with prepared JSON spliced in (prepared-json.ts).
  const head = `{"status":${JSON.stringify(status)},"message":${JSON.stringify(message)}`;
  let tail = '';
  for (const [key, value] of Object.entries(extra)) {
    if (key === 'status' || key === 'message' || key === 'data') continue;
    const valueText = JSON.stringify(value);
    if (valueText !== undefined) tail += `,${JSON.stringify(key)}:${valueText}`;
  }
  tail += '}';
  const prepared = preparedAnswerOf(head, data, tail);
  const body = prepared?.body ?? bodyOf(head, data, tail);
  // With its length known, the compression middleware passes a small answer on without reading it.
  const res = c.body(body, status as ContentfulStatusCode, {
    'Content-Type': 'application/json',
    'Content-Length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength),
  });
  if (prepared) c.set('preparedAnswer', { response: res, answer: prepared });
  return res;
}

/**
 * The envelope around a prepared value (one that never changes): the same head
 * and tail give the same bytes, made once and sent again as they are, with
 * their compressed forms. Undefined for any other value.
 */
function preparedAnswerOf(head: string, data: unknown, tail: string): PreparedAnswer | undefined {
  const json = preparedJsonOf(data);
  if (!json) return undefined;
  const last = json.lastAnswer;
  if (last && last.head === head && last.tail === tail) return last;
  const body = Buffer.concat([Buffer.from(`${head},"data":`), json.bytes, Buffer.from(tail)]);
  json.lastAnswer = { head, tail, body, compressed: new Map() };
  return json.lastAnswer;
}

/** The answer's bytes (prepared elements copied once into the body, never decoded or encoded again) or text. */
function bodyOf(head: string, data: unknown, tail: string): Buffer<ArrayBuffer> | string {
  const dataJson = data === undefined ? undefined : jsonChunks(data);
  if (typeof dataJson !== 'object') return `${head}${dataJson === undefined ? '' : `,"data":${dataJson}`}${tail}`;
  return Buffer.concat([Buffer.from(`${head},"data":`), ...dataJson, Buffer.from(tail)]);
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
