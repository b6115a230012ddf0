import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import type { PreparedAnswer } from './prepared-json.js';

export type Encoding = 'br' | 'gzip';

/** Text worth compressing; event streams must flow unbuffered, and images/fonts/PDFs are compressed already. */
const COMPRESSIBLE = /^(text\/(?!event-stream)|application\/(json|javascript|xml|manifest\+json|[\w.-]+\+(json|xml))|image\/svg\+xml)/i;

/** Below this many bytes the headers cost more than compression saves. */
export const COMPRESSION_THRESHOLD = 1024;

export const isCompressible = (contentType: string | null | undefined) => COMPRESSIBLE.test(contentType ?? '');

/**
 * The encoding to answer with, from an Accept-Encoding header: Brotli when the
 * client takes it, else gzip, else none. Honours q-values (q=0 refuses) and `*`.
 */
export function negotiateEncoding(acceptEncoding: string | null | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const weight = (name: Encoding) => q.get(name) ?? q.get('*') ?? 0;
  const br = weight('br');
  const gz = weight('gzip');
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return null;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * On-the-fly compression, tuned for speed (Brotli quality 5, gzip level 6):
 * build-time precompression uses the maximum levels instead.
 */
export function compressBody(body: Uint8Array, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 5,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        },
      })
    : gzipAsync(body, { level: 6 });
}

/** compressBody for a prepared answer (envelope.ts): compressed once per encoding, concurrent requests sharing one. */
export function compressPrepared(answer: PreparedAnswer, encoding: Encoding): Promise<Buffer> {
  let form = answer.compressed.get(encoding);
  if (!form) {
    const made = compressBody(answer.body, encoding);
    answer.compressed.set(encoding, made);
    // A failure is not kept: the next request tries again.
    made.catch(() => {
      if (answer.compressed.get(encoding) === made) answer.compressed.delete(encoding);
    });
    form = made;
  }
  return form;
}

/** Adds Accept-Encoding to a response's Vary header, once. */
export function varyOnEncoding(headers: Headers) {
  const vary = headers.get('Vary');
  if (!vary) headers.set('Vary', 'Accept-Encoding');
  else if (!/\baccept-encoding\b/i.test(vary) && vary.trim() !== '*') headers.set('Vary', `${vary}, Accept-Encoding`);
}

/**
 * Compresses text responses (HTML, JSON from /api and /trpc, small static
 * files without a precompressed copy) that are at least COMPRESSION_THRESHOLD
 * bytes, with Brotli or gzip as the client accepts. Responses that already
 * carry a Content-Encoding (precompressed files) pass through untouched.
 */
export function compressResponses(threshold = COMPRESSION_THRESHOLD): MiddlewareHandler {
  return async (c, next) => {
    await next();
    // Headers first: reading `res.body` turns @hono/node-server's light response into a WHATWG
    // one with a stream, which small and uncompressible answers never need.
    const headers = c.res.headers;
    if (headers.has('Content-Encoding') || !isCompressible(headers.get('Content-Type'))) return;
    if (/\bno-transform\b/i.test(headers.get('Cache-Control') ?? '')) return;
    const length = Number(headers.get('Content-Length') ?? Number.NaN);
    if (length === 0 || c.res.status === 204 || c.res.status === 304) return;
    varyOnEncoding(headers);
    const encoding = negotiateEncoding(c.req.header('Accept-Encoding'));
    if (!encoding || length < threshold) return;
    const res = c.res;
    // A prepared answer's bytes are compressed once for all the requests that get them.
    const made = c.get('preparedAnswer');
    const prepared = made?.response === res ? made.answer : undefined;
    if (!prepared && !res.body) return;
    const body = prepared?.body ?? new Uint8Array(await res.arrayBuffer());
    if (body.byteLength < threshold) {
      if (!prepared) c.res = new Response(body, res);
      return;
    }
    const compressed = prepared ? await compressPrepared(prepared, encoding) : await compressBody(body, encoding);
    const compressedHeaders = new Headers(headers);
    compressedHeaders.set('Content-Encoding', encoding);
    compressedHeaders.set('Content-Length', String(compressed.byteLength));
    // A strong validator names exact bytes; these bytes differ from the uncompressed ones.
    const etag = compressedHeaders.get('ETag');
    if (etag && !etag.startsWith('W/')) compressedHeaders.set('ETag', `W/${etag}`);
    // The old answer is let go first: assigned over it, Hono would read its body (on @hono/node-server a
    // WHATWG response with a stream, made for that) to merge headers that are all copied here already.
    c.res = undefined;
    c.res = new Response(new Uint8Array(compressed), {
      status: res.status,
      headers: compressedHeaders,
    });
  };
}
