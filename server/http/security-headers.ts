import type { MiddlewareHandler } from 'hono';
import { PAINT_FIRST_SCRIPT_HASH } from './paint-first.js';

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
  return async (c, next) => {
    await next();
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    c.header('X-Frame-Options', 'DENY');
    c.header('Cross-Origin-Opener-Policy', 'same-origin');
    c.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
    if (!c.res.headers.has('Content-Security-Policy')) {
      c.header(
        'Content-Security-Policy',
        [
          "default-src 'self'",
          `script-src 'self' ${PAINT_FIRST_SCRIPT_HASH}`,
          "style-src 'self' 'unsafe-inline'",
          "img-src 'self' data:",
          "media-src 'self' https:",
          "font-src 'self' data:",
          `connect-src 'self'${sameOriginSockets(publicHost ?? c.req.header('host'))}`,
          "frame-ancestors 'none'",
          "base-uri 'self'",
          "form-action 'self'",
        ].join('; '),
      );
    }
  };
}
