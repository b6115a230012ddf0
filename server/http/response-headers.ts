import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';

export type HeaderPairs = readonly (readonly [name: string, value: string])[];

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
  const addMissing = (headers: Headers) => {
    for (const [name, value] of pairs) if (!headers.has(name)) headers.set(name, value);
  };
  try {
    addMissing(c.res.headers);
  } catch (err) {
    // Read-only headers (a response from fetch() or Response.redirect()): copied once. Hono's c.header()
    // would copy the response, body stream and all, on every call.
    if (!(err instanceof TypeError)) throw err;
    c.res = new Response(c.res.body, c.res);
    addMissing(c.res.headers);
  }
}
