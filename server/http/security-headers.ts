import type { MiddlewareHandler } from 'hono';
import { PAINT_FIRST_SCRIPT_HASH } from './paint-first.js';
import { defaultResponseHeaders, type HeaderPairs } from './response-headers.js';

/** A Host header that can go into a CSP source as it is (no spaces, quotes or semicolons). */
const PLAIN_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** Where the page's own WebSocket goes: this origin's host, as ws: and wss:. */
function sameOriginSockets(host: string | undefined): string {
  return host && PLAIN_HOST.test(host) ? ` ws://${host} wss://${host}` : '';
}

/**
 * Conservative headers for every response. The CSP allows our own scripts
 * (and, by its hash, the prerendered pages' one inline loader: paint-first.ts),
 * inline styles (React style props), our own images (and small ones Vite
 * inlines as data: URIs), media from https (videos live on cloud storage),
 * and connections only to this origin and its own WebSocket. With PUBLIC_URL
 * set, that origin is its host; otherwise the request's Host.
 */
export function securityHeaders(opts: { publicUrl?: string } = {}): MiddlewareHandler {
  const publicHost = opts.publicUrl ? new URL(opts.publicUrl).host : undefined;
  const policyFor = (host: string | undefined) =>
    [
      "default-src 'self'",
      `script-src 'self' ${PAINT_FIRST_SCRIPT_HASH}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "media-src 'self' https:",
      "font-src 'self' data:",
      `connect-src 'self'${sameOriginSockets(host)}`,
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ].join('; ');
  const fixed: HeaderPairs = [
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['X-Frame-Options', 'DENY'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    // Camera and microphone for this origin only: the call page (/call/{id}) asks for them, and a page
    // reached inside the app keeps the policy of the document it was loaded as. No frame of another origin may.
    ['Permissions-Policy', 'camera=(self), microphone=(self), geolocation=()'],
  ];
  const headersFor = (host: string | undefined): HeaderPairs => [...fixed, ['Content-Security-Policy', policyFor(host)]];
  const withPublicPolicy = publicHost ? headersFor(publicHost) : undefined;
  // Without PUBLIC_URL, the headers of the last Host seen: a deployment is reached by one or two names,
  // so this is almost always a hit, and a client sending other Host headers only replaces it.
  let last: { host: string | undefined; headers: HeaderPairs } | undefined;
  const forRequestHost = (host: string | undefined): HeaderPairs => {
    if (!last || last.host !== host) last = { host, headers: headersFor(host) };
    return last.headers;
  };
  return async (c, next) => {
    await next();
    // Defaults: a header the response sets itself wins (pages may bring their own Content-Security-Policy).
    defaultResponseHeaders(c, withPublicPolicy ?? forRequestHost(c.req.header('host')));
  };
}
