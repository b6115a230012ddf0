import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Every response's default headers (security, request id, no-store for API answers), over a
 * real socket (where they go on Node's response: server/http/response-headers.ts) and through
 * app.request (where they go on the WHATWG headers): the client must get the same either way.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const SECURITY = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(self), microphone=(self), geolocation=()',
};

type Get = (path: string, headers?: Record<string, string>) => Promise<Response>;
/** How the request is sent, and the Host it carries (fetch always sends the server's own). */
const ways: [string, () => { get: Get; host: string }][] = [
  ['over a socket', () => ({ get: (path, headers) => fetch(`${server.url}${path}`, { headers }), host: new URL(server.url).host })],
  [
    'through app.request',
    () => ({
      get: async (path, headers) =>
        createApp(server.deps, { serveClient: false }).request(path, { headers: { host: 'clinic.example:8080', ...headers } }),
      host: 'clinic.example:8080',
    }),
  ],
];

describe.each(ways)('default response headers, %s', (_way, how) => {
  it('gives every answer the security headers, a CSP naming its own WebSocket, and a request id', async () => {
    const { get, host } = how();
    const res = await get('/healthz', { 'x-request-id': 'trace-42' });
    expect(res.status).toBe(200);
    for (const [name, value] of Object.entries(SECURITY)) expect(res.headers.get(name)).toBe(value);
    expect(res.headers.get('content-security-policy')).toContain(`connect-src 'self' ws://${host} wss://${host}`);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-request-id')).toBe('trace-42');
  });

  it('keeps API answers out of every cache, unless the answer says it may be cached', async () => {
    const { get } = how();
    const missing = await get('/api/no-such-path');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-store');
    expect(missing.headers.get('x-frame-options')).toBe('DENY');
    const countries = await get('/api/countries');
    expect(countries.status).toBe(200);
    expect(countries.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    // Each header once, the answer's own winning: no second Cache-Control beside it.
    expect(countries.headers.get('cache-control')).not.toContain('no-store');
  });
});
