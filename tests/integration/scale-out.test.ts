import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSession } from '../../server/auth/sessions-repo.js';
import { ROLE } from '../../server/auth/roles.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import type { DbHandle } from '../../server/db/index.js';
import { createUser } from '../../server/users/service.js';
import { createTestDatabase } from '../helpers/db.js';
import { type ServerProcess, startServerProcess, tempDataDir, freePort } from '../helpers/processes.js';
import { httpClient, recordFeed, wsClient } from '../helpers/callers.js';
import { until } from '../helpers/until.js';

/**
 * Scale-out on real parts without Docker: HAProxy from Debian with
 * the settings of deploy/haproxy/haproxy.cfg, in front of two instances of
 * server/main.ts on one real Postgres. The live feed works across instances,
 * and a rolling restart under steady load fails no request and loses no event.
 */
const hasHaproxy = spawnSync('haproxy', ['-v'], { encoding: 'utf8' }).status === 0;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const why = !onPostgres
  ? 'two instances need one shared Postgres (set TEST_DATABASE_URL); the embedded database is one process'
  : !hasHaproxy
    ? 'HAProxy is not installed (apt-get install -y haproxy)'
    : null;

/** The repo's HAProxy config with the two local instances listed instead of found through Docker's DNS. */
function haproxyConfig(proxyPort: number, ports: number[]): string {
  const cfg = readFileSync('deploy/haproxy/haproxy.cfg', 'utf8');
  const servers = ports.map((p, i) => `    server app${i + 1} 127.0.0.1:${p} check`).join('\n');
  return cfg
    .replace(/^resolvers docker\n(?:[ \t]+.*\n)+/m, '')
    .replace(/^\s*bind :8080$/m, `    bind 127.0.0.1:${proxyPort}`)
    .replace(/^\s*server-template .*$/m, servers)
    .replace(/^\s*log stdout .*$/m, '');
}

const ready = (base: string) => fetch(`${base}/readyz`).then((r) => r.status === 200);

let db: DbHandle & { url?: string };
let dir: { dir: string; remove(): void };
let haproxy: ChildProcess | null = null;
const instances: (ServerProcess | null)[] = [null, null];
let ports: number[] = [];
let proxy = '';
let client: { id: number; token: string };
let env: Record<string, string>;

const start = async (i: number) => {
  instances[i] = await startServerProcess({ ...env, PORT: String(ports[i]) });
  await until(() => ready(`http://127.0.0.1:${ports[i]}`), `instance ${i + 1} is ready`, { timeoutMs: 60_000, ignoreErrors: true });
};

beforeAll(async () => {
  if (why) return;
  db = await createTestDatabase();
  await migrateToLatest(db.db);
  const u = await createUser(db.db, {
    email: `scale-${randomBytes(3).toString('hex')}@example.test`,
    password: `pw-${randomBytes(8).toString('hex')}`,
    firstName: 'Scale',
    lastName: 'Client',
    role: ROLE.client,
  });
  client = { id: u.id, token: (await issueSession(db.db, u.id)).token };
  const admin = await createUser(db.db, {
    email: `scale-admin-${randomBytes(3).toString('hex')}@example.test`,
    password: `pw-${randomBytes(8).toString('hex')}`,
    firstName: 'Scale',
    lastName: 'Admin',
    role: ROLE.admin,
  });
  const adminToken = (await issueSession(db.db, admin.id)).token;
  dir = tempDataDir('poshan-scale-');
  ports = [await freePort(), await freePort()];
  // Like the compose scale profile: /readyz answers 503 for 3 s before the listener closes, so HAProxy
  // (checks every second, down after two failures) stops routing to an instance before it stops accepting.
  env = {
    DATABASE_URL: db.url!,
    APP_SECRET: randomBytes(32).toString('hex'),
    TRUST_PROXY: '1',
    DATA_DIR: dir.dir,
    SHUTDOWN_DRAIN_DELAY_MS: '3000',
  };
  await Promise.all([start(0), start(1)]);
  const proxyPort = await freePort();
  const cfgFile = path.join(dir.dir, 'haproxy.cfg');
  writeFileSync(cfgFile, haproxyConfig(proxyPort, ports));
  haproxy = spawn('haproxy', ['-f', cfgFile, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  proxy = `http://127.0.0.1:${proxyPort}`;
  await until(() => ready(proxy), 'the proxy forwards to a ready instance', { timeoutMs: 60_000, ignoreErrors: true });
  await httpClient(proxy, adminToken).admin.feed.create.mutate({ desc: 'Scale-out post' });
}, 300_000);

afterAll(async () => {
  haproxy?.kill('SIGTERM');
  await Promise.all(instances.map((s) => s?.stop('SIGKILL')));
  await db?.close();
  dir?.remove();
}, 60_000);

describe.skipIf(why !== null)(`two instances behind HAProxy${why ? ` (skipped: ${why})` : ''}`, () => {
  it('carry the live feed across instances, through the proxy', async () => {
    const { client: socket, close } = wsClient(proxy, client.token);
    const feed = recordFeed(socket);
    try {
      await feed.ready(1, 20_000);
      const [post] = (await httpClient(proxy, client.token).feed.list.query({})).items;
      // One like on each instance directly: the subscriber sits on one of them, so one crosses over.
      for (const port of ports) {
        const before = feed.received.length;
        await httpClient(`http://127.0.0.1:${port}`, client.token).feed.toggleLike.mutate({ id: client.id, feedId: post!.id });
        await feed.next((e) => e.kind === 'like.changed' && e.postId === post!.id, { from: before, timeoutMs: 10_000 });
      }
    } finally {
      feed.unsubscribe();
      close();
    }
  }, 60_000);

  // Relies on graceful shutdown: in-flight requests drain, /readyz answers 503 while draining, sockets are
  // told to reconnect. Without it 3 of ~100 requests were reset while an instance stopped.
  /** What the subscriber saw during the rolling restart, for the catch-up check below. */
  let restart: { logged: string[]; received: string[] } | null = null;

  it('restart one at a time under steady load: no request fails, and the subscriber reconnects', async () => {
    const [post] = (await httpClient(proxy, client.token).feed.list.query({})).items;
    const { client: socket, close } = wsClient(proxy, client.token, { retryDelayMs: 200 });
    const feed = recordFeed(socket);
    await feed.ready(1, 20_000);
    let running = true;
    const failures: string[] = [];
    let requests = 0;
    const loadWorker = async (w: number) => {
      for (let n = 0; running; n++) {
        const write = w === 0 && n % 4 === 0;
        try {
          const res = write
            ? await fetch(`${proxy}/api/feeds/update-feed`, {
                method: 'PUT',
                headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' },
                body: JSON.stringify({ id: client.id, feedId: post!.id }),
              })
            : await fetch(`${proxy}/api/feeds/get-feeds`, { headers: { authorization: `Bearer ${client.token}` } });
          await res.arrayBuffer();
          if (res.status !== 200) failures.push(`${write ? 'PUT' : 'GET'} answered ${res.status}`);
        } catch (err) {
          failures.push(`${write ? 'PUT' : 'GET'} failed: ${(err as Error).message}`);
        }
        requests += 1;
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(loadWorker));
    try {
      for (const i of [0, 1]) {
        const stopped = await instances[i]!.stop('SIGTERM');
        expect(stopped.code, instances[i]!.output()).toBe(0);
        await start(i);
        // HAProxy takes it back after two good health checks.
        await new Promise((r) => setTimeout(r, 2500));
      }
    } finally {
      running = false;
      await load;
    }
    expect(requests).toBeGreaterThan(20);
    expect(failures).toEqual([]);

    // Every like committed during the run reached the subscriber, live or replayed on reconnect.
    const logged = await db.db
      .selectFrom('feed_events')
      .select('id')
      .where('kind', '=', 'like.changed')
      .where('post_id', '=', post!.id)
      .execute();
    const last = String(logged.at(-1)!.id);
    await feed
      .next((e) => e.kind === 'like.changed', { from: feed.received.findIndex((r) => r.id === last), timeoutMs: 20_000 })
      .catch(() => null);
    await until(async () => feed.received.some((r) => r.id === last), 'the last like reaches the subscriber', { timeoutMs: 30_000 });
    const firstSeen = feed.received.find((r) => r.event.kind === 'like.changed');
    restart = {
      logged: logged.map((r) => String(r.id)).filter((id) => Number(id) >= Number(firstSeen?.id ?? 0)),
      received: feed.received.map((r) => r.id),
    };
    feed.unsubscribe();
    close();
  }, 300_000);

  // Each like is replayed as it was sent (the log keeps its count): before, catch-up collapsed the likes of
  // one post to its newest count, so a subscriber reconnecting after two likes missed the first one.
  it('and the reconnected subscriber misses no event committed during the restart', () => {
    expect(restart).not.toBeNull();
    const seen = new Set(restart!.received);
    expect(restart!.logged.filter((id) => !seen.has(id))).toEqual([]);
  });
});
