import type { IncomingMessage } from 'node:http';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { RequestRecord } from '../observability/http.js';

/**
 * Who is calling: the client's IP address and user agent, the same way for
 * REST, tRPC over HTTP, the WebSocket and the internal routes.
 *
 * Behind a reverse proxy (TRUST_PROXY=1) the address is the RIGHTMOST entry
 * of X-Forwarded-For: the one our proxy appended from the connection it
 * accepted. Entries to its left were written by the client and prove nothing.
 */

/** Who is calling and how, as every procedure's context carries it (trpc/context.ts). */
export type RequestMeta = {
  ip: string;
  userAgent: string;
  /** The X-Request-Id of this call (HTTP request or WebSocket connection); log lines carry it. */
  requestId?: string;
  /** 'ws' for calls over the WebSocket (logged per call; HTTP requests are logged by the access log). */
  transport?: 'http' | 'ws';
  /** The access log's record of the HTTP request, told the signed-in user. */
  record?: RequestRecord;
};

/** '::ffff:203.0.113.7' and '203.0.113.7' are the same caller (one rate-limit bucket). */
function normalise(address: string): string {
  const trimmed = address.trim();
  return trimmed.toLowerCase().startsWith('::ffff:') && trimmed.includes('.') ? trimmed.slice(7) : trimmed;
}

export function clientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trustProxy: boolean) {
  if (trustProxy && forwardedFor) {
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    const nearest = hops.at(-1);
    if (nearest) return normalise(nearest);
  }
  return socketAddress ? normalise(socketAddress) : 'unknown';
}

/** The address of the TCP peer itself (never a header). */
export function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** For a Hono request (REST, tRPC over HTTP, internal routes). */
export function requestMeta(c: Context, trustProxy: boolean): RequestMeta {
  return {
    ip: clientAddress(socketAddress(c), c.req.header('x-forwarded-for'), trustProxy),
    userAgent: c.req.header('user-agent') ?? '',
  };
}

/** For a raw Node request (the WebSocket upgrade). */
export function incomingMeta(req: IncomingMessage, trustProxy: boolean): RequestMeta {
  return {
    ip: clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustProxy),
    userAgent: req.headers['user-agent'] ?? '',
  };
}
