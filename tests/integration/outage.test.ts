import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSession } from '../../server/auth/sessions-repo.js';
import { ROLE } from '../../server/auth/roles.js';
import { connectPostgres } from '../../server/db/connect.js';
import type { DbHandle } from '../../server/db/index.js';
import { createUser } from '../../server/users/service.js';
import { type PrivatePostgres, privatePostgresUnavailable, startPrivatePostgres } from '../helpers/private-postgres.js';
import { type ServerProcess, startServerProcess } from '../helpers/processes.js';
import { rawSocket } from './raw-socket.js';
import { httpClient, recordFeed, wsClient } from '../helpers/callers.js';
import { until } from '../helpers/until.js';

/**
 * The fault test: two server processes on a private Postgres that the test
 * stops and starts while several clients read and write and a live-feed
 * subscription is open. An outage must look like an outage: 503 with
 * Retry-After, never 401 (browsers would sign their users out), no crash,
 * ready again within 3 s of the database's return, and every write that was
 * acknowledged is still there.
 */
const unavailable = privatePostgresUnavailable();
if (unavailable) console.warn(`[outage.test] skipped: ${unavailable}. Install postgresql-15 to run the database fault test.`);

type Outcome = { status: number; retryAfter: string | null; phase: Phase; path: string } | { error: string; phase: Phase; path: string };
type Phase = 'before' | 'down' | 'after';

let pg: PrivatePostgres;
let handle: DbHandle;
let a: ServerProcess;
let b: ServerProcess;

describe.skipIf(unavailable !== null)('a real Postgres stopped and started under load', () => {
  beforeAll(async () => {
    pg = await startPrivatePostgres();
    // The first instance migrates; the second starts on the migrated database.
    const env = { DATABASE_URL: pg.url, SEED_DEMO: '0', LOG_LEVEL: 'silent' };
    a = await startServerProcess(env);
    b = await startServerProcess(env);
    handle = connectPostgres(pg.url, 4);
  }, 240_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await handle?.close();
    await pg?.destroy();
  }, 60_000);

  async function newUser(role: 'client' | 'admin') {
    const n = Math.random().toString(36).slice(2, 8);
    const u = await createUser(handle.db, {
      email: `${role}-${n}@outage.test`,
      password: `pw-${n}-long-enough`,
      firstName: 'Fault',
      lastName: n,
      role: role === 'admin' ? ROLE.admin : ROLE.client,
    });
    return { id: u.id, token: (await issueSession(handle.db, u.id)).token };
  }

  it('answers 503 with Retry-After (never 401), recovers within 3 s, and loses nothing acknowledged', async () => {
    const clients = await Promise.all([0, 1, 2, 3].map(() => newUser('client')));
    const admin = await newUser('admin');
    const outcomes: Outcome[] = [];
    const acknowledged: number[] = [];
    let phase: Phase = 'before';
    let running = true;

    // A live-feed subscriber on instance B for the whole run.
    const subscriber = wsClient(b.url, clients[0]!.token, { retryDelayMs: 200 });
    const feed = recordFeed(subscriber.client);
    await feed.ready();

    const call = async (base: string, path: string, token: string, body?: unknown) => {
      const at = phase;
      try {
        const res = await fetch(`${base}${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(15_000),
        });
        const json = (await res.json().catch(() => null)) as { data?: { id?: number } } | null;
        outcomes.push({ status: res.status, retryAfter: res.headers.get('retry-after'), phase: at, path });
        return { status: res.status, json };
      } catch (err) {
        outcomes.push({ error: String((err as Error).cause ?? err), phase: at, path });
        return null;
      }
    };

    // Steady load: every client alternates instances, reading (REST and tRPC) and writing.
    const load = clients.map(async (c, i) => {
      let n = 0;
      while (running) {
        const base = (n + i) % 2 === 0 ? a.url : b.url;
        n += 1;
        await call(base, '/api/updated-weights/get-updated-weights', c.token);
        await call(base, '/trpc/auth.checkAuthorization', c.token);
        // A day's entry replaces that day's earlier one: every write gets its own day, so each must survive.
        const date = new Date(Date.UTC(2020, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
        const written = await call(base, '/api/updated-weights/add-updated-weight', c.token, { weight: 60 + (n % 100) / 10, date });
        if (written?.status === 201 && typeof written.json?.data?.id === 'number') acknowledged.push(written.json.data.id);
      }
    });

    const ready = async (base: string) => (await fetch(`${base}/readyz`).catch(() => null))?.status ?? 0;
    const states = async () =>
      `instance A: /readyz ${await ready(a.url)}, instance B: /readyz ${await ready(b.url)}\nA: ${a.output().slice(-2000)}\nB: ${b.output().slice(-2000)}`;
    /** Served requests (200 or 201) answered in a phase: each phase lasts until the load has had some. */
    const served = (p: Phase) => outcomes.filter((o) => o.phase === p && 'status' in o && (o.status === 200 || o.status === 201)).length;
    /** How long Postgres stays down: part of the scenario (pools and queues must ride out seconds, not a blip), not a wait for something. */
    const OUTAGE_MS = 3_000;

    await until(async () => served('before') >= 12, 'the load to be served before the outage', { timeoutMs: 30_000, explain: states });
    phase = 'down';
    await pg.stop();
    await until(async () => (await ready(a.url)) === 503 && (await ready(b.url)) === 503, '/readyz to answer 503', {
      timeoutMs: 10_000,
      explain: states,
    });
    await new Promise((r) => setTimeout(r, OUTAGE_MS));

    await pg.start();
    const backAt = Date.now();
    await until(async () => (await ready(a.url)) === 200 && (await ready(b.url)) === 200, '/readyz to answer 200 again', {
      timeoutMs: 10_000,
      explain: states,
    });
    const readyAfterMs = Date.now() - backAt;
    phase = 'after';
    await until(async () => served('after') >= 12, 'the load to be served again after the outage', { timeoutMs: 30_000, explain: states });
    running = false;
    await Promise.all(load);

    const answered = outcomes.filter((o): o is Extract<Outcome, { status: number }> => 'status' in o);
    const failedToConnect = outcomes.filter((o) => 'error' in o);
    const count = (p: Phase, s: number) => answered.filter((o) => o.phase === p && o.status === s).length;
    console.log(
      `[outage] ${answered.length} answers (before: ${answered.filter((o) => o.phase === 'before').length}, ` +
        `during: ${count('down', 503)} × 503 of ${answered.filter((o) => o.phase === 'down').length}, ` +
        `after: ${answered.filter((o) => o.phase === 'after').length}); ready ${readyAfterMs} ms after Postgres was back; ` +
        `${acknowledged.length} writes acknowledged`,
    );

    // Never signed out by an outage, never a bare 500, and the server never stopped answering.
    expect(answered.filter((o) => o.status === 401)).toEqual([]);
    expect(answered.filter((o) => o.status >= 500 && o.status !== 503)).toEqual([]);
    expect(failedToConnect).toEqual([]);
    expect(count('down', 503)).toBeGreaterThan(0);
    for (const o of answered.filter((x) => x.status === 503)) expect(o.retryAfter, o.path).toMatch(/^\d+$/);
    expect(count('before', 200) + count('before', 201)).toBeGreaterThan(0);
    expect(count('after', 200) + count('after', 201)).toBeGreaterThan(0);
    expect(readyAfterMs).toBeLessThanOrEqual(3_000);

    // Nothing acknowledged was lost.
    const stored = await handle.db.selectFrom('weights').select('id').where('id', 'in', acknowledged).execute();
    expect(stored.length).toBe(acknowledged.length);

    // The subscription was never refused, and live events flow again through the other instance.
    const post = await httpClient(a.url, admin.token).admin.feed.create.mutate({ desc: 'After the outage' });
    await feed.next((e) => e.kind === 'post.created' && e.postId === post.id, { timeoutMs: 10_000 });
    expect(feed.errors.filter((e) => e.data?.code === 'UNAUTHORIZED')).toEqual([]);
    await subscriber.close();

    // Both processes are still running.
    expect(a.output()).not.toMatch(/uncaught|unhandled/i);
    expect(b.output()).not.toMatch(/uncaught|unhandled/i);
  }, 120_000);

  it('a session signed out on one instance closes its socket on the other at once', async () => {
    const u = await newUser('client');
    const socket = await rawSocket(b.url, u.token);
    expect((await socket.call('auth.checkAuthorization')).error).toBeUndefined();
    const signedOutAt = Date.now();
    const res = await fetch(`${a.url}/api/auth/sign-out`, { method: 'PUT', headers: { authorization: `Bearer ${u.token}` } });
    expect(res.status).toBe(200);
    const closed = await Promise.race([socket.closed, new Promise<null>((r) => setTimeout(() => r(null), 3_000))]);
    expect(closed?.code).toBe(4401);
    expect(closed!.at - signedOutAt).toBeLessThan(3_000);
    expect((await fetch(`${b.url}/api/auth/check-authorization`, { headers: { authorization: `Bearer ${u.token}` } })).status).toBe(401);
  }, 60_000);
});
