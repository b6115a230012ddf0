import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLogger, REDACTED } from '../../server/logger.js';
import { metricsRoute } from '../../server/observability/http.js';
import { createMetrics } from '../../server/observability/metrics.js';
import { captureLogs, type LogLine } from '../helpers/log-capture.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { httpClient, wsClient } from '../helpers/callers.js';
import { until } from '../helpers/until.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

/** Waits until a captured line matches (log writes follow the response by a tick). */
function lineMatching(logs: ReturnType<typeof captureLogs>, match: (l: LogLine) => boolean, what: string): Promise<LogLine> {
  return until(() => logs.lines().find(match), `a log line ${what}`, {
    timeoutMs: 5_000,
    intervalMs: 10,
    explain: () => `saw:\n${logs.text}`,
  });
}

describe('logs, request ids and metrics', () => {
  const logs = captureLogs();
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'debug', METRICS_TOKEN }, { logDestination: logs.destination });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('writes one JSON line per request with method, route pattern, status, duration, request id and user', async () => {
    const client = await server.user();
    const res = await server.request('DELETE', '/api/updated-weights/delete-updated-weight/987654', { token: client.token });
    const reqId = res.headers.get('x-request-id');
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/);
    const line = await lineMatching(logs, (l) => l.reqId === reqId && l.msg === 'request', 'for the DELETE');
    expect(line).toMatchObject({
      level: 'info',
      method: 'DELETE',
      route: '/api/updated-weights/delete-updated-weight/:id',
      status: res.status,
      userId: client.id,
    });
    expect(typeof line.ms).toBe('number');
    expect(typeof line.time).toBe('string');
    expect(JSON.stringify(line)).not.toContain('987654');
  });

  it('keeps a sane incoming X-Request-Id and replaces one that is not', async () => {
    const kept = await server.request('GET', '/api/countries', { headers: { 'x-request-id': 'lb-7f3a.42:req_1' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.42:req_1');
    await lineMatching(logs, (l) => l.reqId === 'lb-7f3a.42:req_1' && l.route === '/api/countries' && l.status === 200, 'for countries');

    const replaced = await server.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id\twith "quotes"' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const tooLong = await server.request('GET', '/healthz', { headers: { 'x-request-id': 'a'.repeat(200) } });
    expect(tooLong.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('labels tRPC requests with the procedure path and passes the request id into the procedure context', async () => {
    const res = await fetch(`${server.url}/trpc/countries.list`, { headers: { 'x-request-id': 'trpc-round-trip-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('trpc-round-trip-1');
    await lineMatching(logs, (l) => l.reqId === 'trpc-round-trip-1' && l.route === '/trpc/countries.list', 'for the tRPC call');

    // A batch names each procedure (auth calls are never batched); the signed-in user is on the line.
    const admin = await server.user({ role: 'admin' });
    const batch = await fetch(`${server.url}/trpc/countries.list,testimonials.published?batch=1&input=${encodeURIComponent('{}')}`, {
      headers: { 'x-request-id': 'trpc-batch-1', authorization: `Bearer ${admin.token}` },
    });
    expect(batch.status).toBe(200);
    const line = await lineMatching(logs, (l) => l.reqId === 'trpc-batch-1', 'for the batch');
    expect(line).toMatchObject({ route: '/trpc/countries.list,testimonials.published', userId: admin.id });
  });

  it('echoes the request id on the WebSocket upgrade and logs each call over the socket with it', async () => {
    // Calls over a socket need a live session: it comes in connectionParams.
    const { token } = await server.user();
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/trpc?connectionParams=1`, {
      headers: { 'x-request-id': 'ws-round-trip-1' },
    });
    const opened = once(ws, 'open');
    const [upgrade] = (await once(ws, 'upgrade')) as [IncomingMessage];
    expect(upgrade.headers['x-request-id']).toBe('ws-round-trip-1');
    await opened;
    ws.send(JSON.stringify({ method: 'connectionParams', data: { token } }));
    ws.send(JSON.stringify({ id: 1, method: 'query', params: { path: 'countries.list', input: { json: null } } }));
    const [reply] = (await once(ws, 'message')) as [Buffer];
    expect(JSON.parse(reply.toString())).toMatchObject({ id: 1, result: { type: 'data' } });
    ws.close();
    const line = await lineMatching(logs, (l) => l.reqId === 'ws-round-trip-1' && l.msg === 'ws call', 'for the WebSocket call');
    expect(line).toMatchObject({ route: 'countries.list', type: 'query', code: 'OK' });

    // A call the guard refuses (a socket without a live session) is logged too, with its code.
    const refused = new WebSocket(`${server.url.replace(/^http/, 'ws')}/trpc`, { headers: { 'x-request-id': 'ws-refused-1' } });
    await once(refused, 'open');
    refused.send(JSON.stringify({ id: 2, method: 'query', params: { path: 'countries.list', input: { json: null } } }));
    const [refusal] = (await once(refused, 'message')) as [Buffer];
    expect(JSON.parse(refusal.toString())).toMatchObject({ id: 2, error: { json: { data: { code: 'UNAUTHORIZED' } } } });
    refused.close();
    const refusedLine = await lineMatching(logs, (l) => l.reqId === 'ws-refused-1' && l.msg === 'ws call', 'for the refused call');
    expect(refusedLine).toMatchObject({ route: 'countries.list', type: 'query', code: 'UNAUTHORIZED' });

    // Without an incoming id the socket gets a fresh one.
    const fresh = new WebSocket(`${server.url.replace(/^http/, 'ws')}/trpc`);
    const [up2] = (await once(fresh, 'upgrade')) as [IncomingMessage];
    expect(up2.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    fresh.close();
  });

  it('keeps reset links, tokens and passwords out of the log of a whole reset flow', async () => {
    const client = await server.user();
    logs.clear();
    const asked = await server.request('POST', '/api/auth/forgot-password', { body: { email: client.email } });
    expect(asked.status).toBe(200);
    await server.deps.mailer.drain();
    // The outbox keeps the mail with its link hidden; the whole mail only passed through delivery (the test's sink).
    const delivered = server.mails.filter((m) => m.to === client.email.toLowerCase()).at(-1);
    const link = delivered && /https?:\/\/\S+reset-password\?token=\S+/.exec(delivered.text)?.[0];
    expect(link).toBeTruthy();
    const token = decodeURIComponent(new URL(link as string).searchParams.get('token') ?? '');
    const newPassword = 'a-brand-new-Passw0rd-for-logs';
    const reset = await server.request('POST', '/api/auth/reset-password', { body: { token, password: newPassword } });
    expect(reset.status).toBe(200);
    const signedIn = await server.request('POST', '/api/auth/sign-in', { body: { email: client.email, password: newPassword, role: 2 } });
    expect(signedIn.status).toBe(200);
    await lineMatching(logs, (l) => l.route === '/api/auth/sign-in', 'for the sign-in');

    expect(logs.raw.length).toBeGreaterThanOrEqual(3);
    expect(logs.text).toContain('mail kept in the outbox');
    for (const secret of [link as string, token, newPassword, client.password, signedIn.body.data.token, signedIn.body.data.refreshToken]) {
      expect(logs.text).not.toContain(secret);
    }
  });

  it('redacts sensitive fields and secrets in message text wherever a caller puts them', () => {
    const out = captureLogs();
    const logger = createLogger({ level: 'debug', destination: out.destination });
    logger.info('sending https://poshan.example/reset-password?token=tok_SECRET123&x=1 with Bearer abc.def.ghi', {
      token: 'tok_SECRET123',
      password: 'hunter2-password',
      link: 'https://poshan.example/invite?token=inv_SECRET',
      req: { headers: { authorization: 'Bearer abc.def.ghi' } },
      input: { weightKg: 81.5, heightM: 1.62, bmi: 31.1, notes: 'knee pain', password: 'pw-in-input' },
      userId: 7,
    });
    const [line] = out.lines();
    for (const secret of [
      'tok_SECRET123',
      'hunter2-password',
      'inv_SECRET',
      'abc.def.ghi',
      '81.5',
      '1.62',
      '31.1',
      'knee pain',
      'pw-in-input',
    ]) {
      expect(out.text).not.toContain(secret);
    }
    expect(line).toMatchObject({ token: REDACTED, password: REDACTED, userId: 7, input: { notes: REDACTED, weightKg: REDACTED } });
    expect(line?.msg).toContain('reset-password?token=[redacted]');
  });

  it('serves /metrics only with the bearer token, with the named series', async () => {
    expect((await server.request('GET', '/metrics')).status).toBe(401);
    expect((await server.request('GET', '/metrics', { token: 'wrong-token-of-the-same-sort-000000' })).status).toBe(401);

    // Some traffic to count: a failed sign-in, a live subscription, a published event.
    const admin = await server.user({ role: 'admin' });
    const client = await server.user();
    await server.request('POST', '/api/auth/sign-in', { body: { email: client.email, password: 'not-the-password', role: 2 } });
    const live = wsClient(server.url, client.token);
    const events: string[] = [];
    const sub = live.client.feed.events.subscribe(undefined, { onData: (t) => events.push(t.data.kind) });
    try {
      await until(() => events.includes('ready'), "the subscription's ready", { timeoutMs: 5_000, intervalMs: 10 });
      await httpClient(server.url, admin.token).admin.feed.create.mutate({ desc: 'Counted by the metrics' });
      await until(() => events.length >= 2, "the new post's event", { timeoutMs: 5_000, intervalMs: 10 });

      const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const text = await res.text();
      for (const series of [
        'http_request_duration_seconds_bucket{',
        'route="/api/auth/sign-in"',
        'route="/trpc/countries.list"',
        'poshan_ws_live_subscriptions 1',
        'poshan_live_clients 1',
        'poshan_feed_events_published_total 1',
        'poshan_feed_events_delivered_total 1',
        'poshan_feed_fanout_seconds_count 1',
        'poshan_sign_ins_total{outcome="rejected"}',
        'poshan_rate_limit_refusals_total',
        'poshan_outbox_unsettled_mails{status=',
        'poshan_outbox_mails_total{status="logged"}',
        'poshan_last_error_timestamp_seconds',
        'poshan_job_queue_depth',
        'nodejs_eventloop_lag_p99_seconds',
        'nodejs_heap_size_used_bytes',
        'nodejs_gc_duration_seconds',
      ]) {
        expect(text, series).toContain(series);
      }
      expect(text).toMatch(/^poshan_ws_open_sockets [1-9]/m);
      if (server.deps.dbHandle.kind === 'postgres') expect(text).toContain('poshan_db_pool_connections{state="waiting"}');
      expect(text).not.toMatch(/route="[^"]*\d{4,}/); // no raw ids in route labels
    } finally {
      sub.unsubscribe();
      live.close();
    }
  });

  it('labels only procedures that exist: 4,000 made-up tRPC paths, batches and methods add one label', async () => {
    const routeLabels = async () => {
      const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const text = await res.text();
      const series = text.split('\n').filter((l) => l.startsWith('http_request_duration_seconds_count{'));
      return { series, bytes: text.length, routes: new Set(series.map((l) => /route="([^"]*)"/.exec(l)?.[1])) };
    };
    // A real call and a scrape first, so their labels exist before the flood.
    expect((await fetch(`${server.url}/trpc/countries.list`)).status).toBe(200);
    await routeLabels();
    const before = await routeLabels();
    const madeUp = async (i: number) => {
      const url = [
        `/trpc/made.up${i}`,
        `/trpc/countries.list,made.up${i}?batch=1&input=%7B%7D`,
        `/trpc/made.up${i}`,
        `/trpc/x${i}.y,z${i}?batch=1&input=%7B%7D`,
      ][i % 4];
      const res = await fetch(`${server.url}${url}`, i % 4 === 2 ? { method: 'POST', body: '{}' } : {});
      await res.arrayBuffer();
    };
    for (let i = 0; i < 4_000; i += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => madeUp(i + j)));
    const after = await routeLabels();
    const added = [...after.routes].filter((r) => !before.routes.has(r));
    // A request tRPC refuses before it reads the path keeps the route's own pattern.
    expect(
      added.filter((r) => r !== 'unknown' && r !== '/trpc/*'),
      added.join(', '),
    ).toEqual([]);
    expect([...after.routes].filter((r) => r?.includes('made.up'))).toEqual([]);
    expect(after.routes.has('/trpc/countries.list')).toBe(true);
    // A handful of (method, status) pairs for 'unknown', not one series per path.
    expect(after.series.length - before.series.length).toBeLessThan(10);
    expect(after.bytes).toBeLessThan(before.bytes + 20_000);
  }, 300_000);

  it('answers 404 at /metrics when METRICS_TOKEN is not set, and records nothing', async () => {
    const metrics = createMetrics({ enabled: false });
    const route = metricsRoute({ config: { ...server.deps.config, metricsToken: undefined }, metrics });
    const res = await route.request('/', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(404);
    expect((await res.json()).message).toContain('METRICS_TOKEN');
    metrics.httpRequest('GET', '/x', 200, 0.01);
    expect((await metrics.render()).body).toBe('');
  });
});
