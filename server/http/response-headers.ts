import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';

export type HeaderPairs = readonly (readonly [name: string, value: string])[];

/**
 * Changes the headers of the response a handler gave, in place. Hono's
 * `c.header()` after the response exists copies the whole response (and opens
 * its body as a stream) on every call; on @hono/node-server that turns each
 * small answer into several WHATWG Responses. Here the headers are changed
 * where they are; only a response whose headers are read-only (one from
 * `fetch()` or `Response.redirect()`) is copied, once.
 */
function withResponseHeaders(c: Context, change: (headers: Headers) => void): void {
  try {
    change(c.res.headers);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    c.res = new Response(c.res.body, c.res);
    change(c.res.headers);
  }
}

/**
 * Gives the response these headers where it has none of its own. On
 * @hono/node-server they go on the Node response (`setHeader`), which sends
 * them with the response's own headers, its own winning: the WHATWG Headers
 * object (whose every call validates and re-sorts) is not touched at all.
 * Elsewhere (app.request in tests, other runtimes) they are added to
 * `c.res.headers` where missing. Either way the client gets the same headers.
 */
export function defaultResponseHeaders(c: Context, pairs: HeaderPairs): void {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing && typeof outgoing.setHeader === 'function' && !outgoing.headersSent) {
    for (const [name, value] of pairs) outgoing.setHeader(name, value);
    return;
  }
  withResponseHeaders(c, (headers) => {
    for (const [name, value] of pairs) if (!headers.has(name)) headers.set(name, value);
  });
}
