import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../server/env.js';
import { startServerProcess, tempDataDir } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Transport limits and graceful shutdown: slow request heads are cut off,
 * WebSockets are capped per client address (the proxy's rightmost
 * X-Forwarded-For hop when TRUST_PROXY is on), and SIGTERM lets requests in
 * flight finish while telling WebSocket clients to reconnect elsewhere.
 */

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

const SLOW = { timeout: 120_000 };
const START = 180_000;

const wsUrl = (s: TestServer) => `${s.url.replace('http', 'ws')}/trpc`;

/** Opens a socket; resolves 'open', or the HTTP status of a refused upgrade. */
function openSocket(s: TestServer, headers: Record<string, string> = {}) {
  const ws = new WebSocket(wsUrl(s), { headers });
  cleanups.push(() => ws.terminate());
  return new Promise<{ ws: WebSocket; outcome: 'open' | number }>((resolve, reject) => {
    ws.once('open', () => resolve({ ws, outcome: 'open' }));
    ws.once('unexpected-response', (_req, res) => resolve({ ws, outcome: res.statusCode ?? 0 }));
    ws.once('error', reject);
  });
}

describe('on one server, without a trusted proxy', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ LOG_LEVEL: 'silent', HTTP_HEADERS_TIMEOUT_MS: '1000', WS_MAX_PER_IP: '2' });
  }, START);
  afterAll(() => s?.stop());

  it('closes a connection that never finishes its headers (408) once the headers timeout passes', SLOW, async () => {
    expect(s.httpServer.headersTimeout).toBe(1000);
    const socket = connect(s.port, '127.0.0.1');
    cleanups.push(() => socket.destroy());
    await new Promise((resolve) => socket.once('connect', resolve));
    const started = Date.now();
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    let answer = '';
    socket.on('data', (d) => {
      answer += String(d);
    });
    await new Promise((resolve) => socket.once('close', resolve));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('defaults to 30 s for the head and 120 s for the whole request', () => {
    const config = loadConfig({});
    expect(config.headersTimeoutMs).toBe(30_000);
    expect(config.requestTimeoutMs).toBe(120_000);
    expect(config.shutdownGraceMs).toBe(10_000);
  });

  it('caps open WebSockets per address, and frees a place when one closes', SLOW, async () => {
    const a = await openSocket(s);
    const b = await openSocket(s, { 'x-forwarded-for': '203.0.113.1' });
    expect([a.outcome, b.outcome]).toEqual(['open', 'open']);
    // X-Forwarded-For is not trusted here: the socket address counts.
    expect((await openSocket(s, { 'x-forwarded-for': '203.0.113.2' })).outcome).toBe(429);

    const closed = new Promise((resolve) => a.ws.once('close', resolve));
    a.ws.close();
    await closed;
    await expect.poll(async () => (await openSocket(s)).outcome, { timeout: 5000 }).toBe('open');
  });
});

describe('subscriptions on one WebSocket', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ LOG_LEVEL: 'silent' });
  }, START);
  afterAll(() => s?.stop());

  it(
    'are capped at WS_MAX_SUBSCRIPTIONS (100): one more gets TOO_MANY_REQUESTS, the socket stays, a stopped one frees a place',
    SLOW,
    async () => {
      expect(loadConfig({}).wsMaxSubscriptions).toBe(100);
      const { token } = await s.user();
      const ws = new WebSocket(`${wsUrl(s)}?connectionParams=1`);
      cleanups.push(() => ws.terminate());
      const answers = new Map<
        number,
        Array<{ result?: { type: string }; error?: { json: { message: string; data: { code: string } } } }>
      >();
      ws.on('message', (raw) => {
        const frame = JSON.parse(String(raw));
        if (typeof frame.id === 'number') answers.set(frame.id, [...(answers.get(frame.id) ?? []), frame]);
      });
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      const send = (frame: object) => ws.send(JSON.stringify(frame));
      const subscribe = (id: number) => send({ id, method: 'subscription', params: { path: 'feed.events', input: { json: null } } });
      const answered = (id: number, kind: 'started' | 'error' | 'data') =>
        expect
          .poll(() => answers.get(id)?.some((a) => (kind === 'error' ? a.error : a.result?.type === kind)), { timeout: 30_000 })
          .toBe(true);

      send({ method: 'connectionParams', data: { token } });
      for (let id = 1; id <= 100; id++) subscribe(id);
      for (let id = 1; id <= 100; id++) await answered(id, 'started');
      subscribe(101);
      await answered(101, 'error');
      const refusal = answers.get(101)!.find((a) => a.error)!.error!.json;
      expect(refusal.data.code).toBe('TOO_MANY_REQUESTS');
      expect(refusal.message).toMatch(/100 live updates/);
      expect(ws.readyState).toBe(WebSocket.OPEN);

      // Stopping one frees its place; the socket still answers other calls.
      send({ id: 1, method: 'subscription.stop' });
      await expect.poll(() => answers.get(1)?.some((a) => a.result?.type === 'stopped'), { timeout: 10_000 }).toBe(true);
      subscribe(102);
      await answered(102, 'started');
      subscribe(103);
      await answered(103, 'error');
      send({ id: 104, method: 'query', params: { path: 'countries.list', input: { json: null } } });
      await answered(104, 'data');
    },
  );
});

describe('behind a trusted proxy, then shutting down', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ LOG_LEVEL: 'silent', TRUST_PROXY: '1', WS_MAX_PER_IP: '1', SHUTDOWN_DRAIN_DELAY_MS: '2000' });
  }, START);
  afterAll(() => s?.stop());

  it('counts the rightmost X-Forwarded-For hop, which the client cannot forge', SLOW, async () => {
    // The proxy appended 203.0.113.9; the client wrote the rest.
    expect((await openSocket(s, { 'x-forwarded-for': '10.0.0.1, 203.0.113.9' })).outcome).toBe('open');
    // Changing the left part does not make a new client...
    expect((await openSocket(s, { 'x-forwarded-for': '10.9.9.9, 203.0.113.9' })).outcome).toBe(429);
    // ...a different proxy-seen address does.
    expect((await openSocket(s, { 'x-forwarded-for': '203.0.113.9, 203.0.113.10' })).outcome).toBe('open');
  });

  it('on close: /readyz answers 503 while draining, and WebSocket clients are told to reconnect, then closed with 1001', SLOW, async () => {
    const { ws } = await openSocket(s, { 'x-forwarded-for': '203.0.113.50' });
    const messages: string[] = [];
    ws.on('message', (m) => messages.push(String(m)));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    expect((await s.request('GET', '/readyz')).status).toBe(200);

    const closing = s.close();
    const ready = await s.request('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 503, message: 'This instance is shutting down.' });
    await closing;
    expect(await closed).toBe(1001);
    expect(messages.map((m) => JSON.parse(m))).toContainEqual({ id: null, method: 'reconnect' });
  });
});

describe('SIGTERM on the real process', () => {
  const data = tempDataDir();
  afterAll(() => data.remove());

  it('lets a slow request in flight finish, refuses new connections, then exits 0', { timeout: 240_000 }, async () => {
    const proc = await startServerProcess({ DATA_DIR: data.dir, SHUTDOWN_DRAIN_DELAY_MS: '1500', SHUTDOWN_GRACE_MS: '20000' });
    cleanups.push(() => proc.stop('SIGKILL'));

    // A support request whose body arrives slowly. 100-continue proves the server holds the request before SIGTERM.
    const body = JSON.stringify({ name: 'Slow Sender', email: 'slow@example.test', message: 'Sent in two halves, across a SIGTERM.' });
    const half = Math.floor(body.length / 2);
    const req = httpRequest(`${proc.url}/api/support/create-support-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), expect: '100-continue' },
    });
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d) => {
          text += String(d);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
    });
    await new Promise((resolve) => req.once('continue', resolve));
    req.write(body.slice(0, half));

    process.kill(proc.pid, 'SIGTERM');
    // Draining: still listening, but not ready...
    await expect.poll(async () => (await fetch(`${proc.url}/readyz`).catch(() => null))?.status, { timeout: 10_000 }).toBe(503);
    // ...then no new connections at all.
    await expect
      .poll(
        async () =>
          fetch(`${proc.url}/healthz`).then(
            () => 'accepted',
            () => 'refused',
          ),
        { timeout: 10_000 },
      )
      .toBe('refused');

    req.end(body.slice(half));
    const answer = await response;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).message).toContain('Thanks for reaching out');

    const result = await proc.exited;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Poshan stopped.');
  });
});
