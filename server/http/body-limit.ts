import { TRPCError } from '@trpc/server';
import { getErrorShape, transformTRPCResponse } from '@trpc/server/unstable-core-do-not-import';
import type { Context, MiddlewareHandler } from 'hono';
import { ATTACHMENT_BODY_LIMIT, MAX_ATTACHMENT_MB, UPLOAD_PATH } from '../attachments/limits.js';
import { PDF_BASE64_MAX } from '../diet-plan/schema.js';
import { appRouter } from '../trpc/root.js';
import { DISCARD_AT_MOST_BYTES, discardRest } from './discard-body.js';
import { envelope } from './envelope.js';

/** Every JSON body (REST, tRPC, internal routes): far above any form, far below anything that hurts. */
export const JSON_BODY_LIMIT = 64 * 1024;
/** The procedures that carry a PDF (base64 in JSON) get room for it, and only they. */
export const UPLOAD_PROCEDURES = new Set(['admin.dietPlans.upload', 'admin.dietPlans.revise']);
export const UPLOAD_BODY_LIMIT = PDF_BASE64_MAX + JSON_BODY_LIMIT;
export { ATTACHMENT_BODY_LIMIT };

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(0)} MB`;

function tooLargeMessage(limit: number) {
  if (limit === ATTACHMENT_BODY_LIMIT) return `The file is too large: at most ${MAX_ATTACHMENT_MB} MB is accepted.`;
  return limit === UPLOAD_BODY_LIMIT
    ? `The request is too large: an upload can carry a PDF of at most ${mb(PDF_BASE64_MAX * 0.75)}.`
    : `The request body is too large: at most ${kb(limit)} is accepted.`;
}

/** The procedures a tRPC HTTP request names: '/trpc/a.b,c.d?batch=1' → ['a.b', 'c.d']. */
function trpcPaths(c: Context): string[] {
  return decodeURIComponent(c.req.path.slice('/trpc/'.length)).split(',');
}

/** A 413 that tRPC clients read like any other error of theirs (through our error formatter). */
function trpcTooLarge(c: Context, limit: number) {
  const config = appRouter._def._config;
  const error = new TRPCError({ code: 'PAYLOAD_TOO_LARGE', message: tooLargeMessage(limit) });
  const shapeFor = (path: string) => ({
    error: getErrorShape({ config, error, type: 'unknown', path, input: undefined, ctx: undefined }),
  });
  const paths = trpcPaths(c);
  const body = c.req.query('batch') ? paths.map(shapeFor) : shapeFor(paths[0] ?? '');
  c.header('Connection', 'close');
  return c.json(transformTRPCResponse(config, body as never) as object, 413);
}

function restTooLarge(c: Context, limit: number) {
  c.header('Connection', 'close');
  return envelope(c, 413, tooLargeMessage(limit));
}

/**
 * Bounds every request body before it is read into memory: a Content-Length
 * over the limit is refused at once, and a streamed body is counted as it
 * arrives and refused as soon as it passes the limit (413). Either way the
 * rest of the body is discarded (within bounds) before the answer, which
 * then closes the connection. GET and HEAD bodies are never read, so they
 * pass; so does a body whose declared length is within the limit (Node's
 * parser never hands on more than that). The upload path streams its body
 * into its own reader, which counts it against the same limit
 * (server/attachments/rest.ts): it is not buffered here.
 */
export function bodyLimits(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const trpc = c.req.path.startsWith('/trpc/');
    const upload = !trpc && c.req.method === 'POST' && c.req.path === UPLOAD_PATH;
    // A batch that carries an upload gets the upload's room (the PDF is nearly all of it).
    const limit =
      trpc && trpcPaths(c).some((p) => UPLOAD_PROCEDURES.has(p)) ? UPLOAD_BODY_LIMIT : upload ? ATTACHMENT_BODY_LIMIT : JSON_BODY_LIMIT;
    const tooLarge = () => (trpc ? trpcTooLarge(c, limit) : restTooLarge(c, limit));
    // The body is touched only when it must be read: asking @hono/node-server for it turns the request into a WHATWG one.
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      const length = Number.parseInt(declared, 10);
      if (length <= limit) return next();
      // A body too large to discard is cut off at once: waiting for part of it would only delay the answer.
      const body = length <= DISCARD_AT_MOST_BYTES ? c.req.raw.body : null;
      if (body) await discardRest(body.getReader());
      return tooLarge();
    }
    if (upload) return next();
    const body = c.req.raw.body;
    if (!body) return next();
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await discardRest(reader, size);
        return tooLarge();
      }
      chunks.push(value);
    }
    c.req.raw = new Request(c.req.raw, { body: Buffer.concat(chunks) });
    return next();
  };
}
