/**
 * npm run bench: the server against the least possible servers for the same
 * work, side by side in one run, on this machine (see docs/benchmarks.md).
 *
 *   npm run bench                      full run, writes the "Server" section of docs/benchmarks.md
 *   npm run bench -- --smoke           a few seconds of each part, nothing written (CI)
 *   npm run bench -- --profile         also writes CPU profiles of the app and the reference to .bench/
 *   npm run bench -- --observability   logs + metrics on vs off on the feed read (scripts/bench-observability.ts)
 *   npm run bench -- --parts=messages  only the messages part; it writes its own section of docs/benchmarks.md
 *   options: --seconds=N  --sizes=1000,5000  --parts=reads,likes,layers,fanout,messages,pglite  --no-pglite  --out=FILE
 *            --conversations=N (open conversations of the messages part, 1,000)
 *
 * Postgres: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
 * It creates (and drops afterwards) a database poshan_bench_<pid> there.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { connectPostgres } from '../server/db/connect.js';
import { migrateToLatest } from '../server/db/migrate.js';
import { type Child, startChild } from './bench/children.js';
import { runLoad, percentile, sortedCopy } from './bench/load.js';
import { cpuMeter } from './bench/cpu.js';
import {
  writeBlock,
  type FanoutRow,
  LAYERS,
  type LayerName,
  type LayerRow,
  type Measured,
  type PairedRound,
  type Report,
  writeReport,
  printReport,
} from './bench/report.js';
import { seedBench, type BenchData } from './bench/seed.js';
import { openSubscribers, type Target } from './bench/subscribers.js';
import {
  type ChatData,
  chatTargets,
  delivery,
  type MessagesReport,
  renderMessagesReport,
  type StoredSend,
  STORED_SEND_SQL,
  seedConversations,
  sendFloorSql,
  SEND_CONNECTIONS,
  sendLoads,
} from './bench/messages.js';

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k!, v ?? 'true'] as const;
  }),
);
const smoke = args.has('smoke');
const seconds = Number(args.get('seconds') ?? (smoke ? 1 : 8));
const sizes = (args.get('sizes') ?? (smoke ? '50' : '1000,5000,10000')).split(',').map(Number);
const parts = new Set((args.get('parts') ?? 'reads,likes,layers,fanout,messages,pglite').split(','));
const withPglite = parts.has('pglite') && !args.has('no-pglite');
const profileDir = args.has('profile') ? path.resolve('.bench') : undefined;
// Only a full run replaces the table in docs/benchmarks.md.
const outFile = args.get('out') ?? (smoke || args.has('parts') || args.has('sizes') ? undefined : 'docs/benchmarks.md');

const READ_CONNECTIONS = 50;
const LIKE_CLIENTS = 8;
const LIKE_CONNECTIONS = 32;
const LIKED_POSTS = 8;
/** Toggles are measured in paired rounds, reference and app one after the other (see likes()). */
const LIKE_ROUNDS = smoke ? 1 : 3;
/** The embedded database's read against its own /healthz, in paired rounds as the toggles are. */
const EMBEDDED_ROUNDS = smoke ? 1 : 5;
const SEED = { clients: 200, posts: 30, likedClients: 100 };
/** Open conversations of the messages part (two subscriptions each). */
const CONVERSATIONS = Number(args.get('conversations') ?? (smoke ? 50 : 1000));
/** Sends are measured in paired rounds, as the toggles are. */
const SEND_ROUNDS = smoke ? 1 : 3;

const log = (line: string) => console.log(`[bench] ${line}`);
const durationMs = seconds * 1000;
const warmupMs = smoke ? 300 : 1500;

function databaseUrl(base: string, name: string) {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(base: string, fn: (c: pg.Client) => Promise<T>) {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let meter: ReturnType<typeof cpuMeter> | null = null;

/** A warm-up, then the measured load, with what each request cost in CPU (server process and database). */
async function measured(spec: Parameters<typeof runLoad>[0], server?: Child): Promise<Measured> {
  await runLoad({ ...spec, durationMs: warmupMs });
  const pid = server?.process.pid;
  const start = meter && pid ? await meter.sample(pid) : null;
  const result = await runLoad(spec);
  const cpu = meter && pid && start ? await meter.since(start, pid, result.requests) : undefined;
  return { ...result, cpu };
}

async function reads(app: Child, reference: Child, data: BenchData) {
  const headers = (w: number) => bearer(data.tokens[w % data.tokens.length]!);
  const base = { connections: READ_CONNECTIONS, durationMs, headers };
  log(`reads: ${READ_CONNECTIONS} connections, ${seconds} s each`);
  const ref = await measured({ ...base, url: `http://127.0.0.1:${reference.port}/feeds` }, reference);
  const rest = await measured({ ...base, url: `http://127.0.0.1:${app.port}/api/feeds/get-feeds` }, app);
  const input = encodeURIComponent(JSON.stringify({ json: {} }));
  const trpc = await measured({ ...base, url: `http://127.0.0.1:${app.port}/trpc/feed.list?input=${input}` }, app);
  return { ref, rest, trpc };
}

/**
 * `count` rounds of two measurements one after the other, the one going first alternating, so a
 * burst of other work on the shared machine does not decide a ratio alone; `median` is the round
 * with the median ratio (app over reference).
 */
async function pairedRounds(label: string, count: number, measureRef: () => Promise<Measured>, measureApp: () => Promise<Measured>) {
  const rounds: PairedRound[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 2 === 0) {
      const ref = await measureRef();
      rounds.push({ ref, app: await measureApp() });
    } else {
      const app = await measureApp();
      rounds.push({ ref: await measureRef(), app });
    }
    const { ref, app } = rounds.at(-1)!;
    log(`${label}, round ${i + 1}: ${Math.round(app.rps)}/s against ${Math.round(ref.rps)}/s, ${(app.rps / ref.rps).toFixed(2)}x`);
    // A refused or failed request is not throughput: a round with any is not a measurement of what it says.
    if (app.failed > 0 || ref.failed > 0)
      throw new Error(`${label}, round ${i + 1}: ${app.failed} requests to the app and ${ref.failed} to the reference failed`);
  }
  const median = [...rounds].sort((a, b) => a.app.rps / a.ref.rps - b.app.rps / b.ref.rps)[Math.floor(rounds.length / 2)]!;
  return { median, rounds };
}

/**
 * 8 clients on 32 connections toggling likes on 8 posts; then every count must equal the rows.
 * A burst of other work on a shared machine lands on one server's measurement, so the two are measured
 * in LIKE_ROUNDS rounds, the one that goes first alternating; the round with the median ratio is shown.
 */
async function likes(app: Child, reference: Child, data: BenchData, db: pg.Client) {
  log(
    `like toggles: ${LIKE_CLIENTS} clients, ${LIKE_CONNECTIONS} connections, ${LIKE_ROUNDS} paired round${LIKE_ROUNDS === 1 ? '' : 's'} of ${seconds} s each`,
  );
  const clientOf = (w: number) => w % LIKE_CLIENTS;
  const appPosts = data.postIds.slice(0, LIKED_POSTS);
  const refPosts = data.postIds.slice(LIKED_POSTS, 2 * LIKED_POSTS);
  const spec = (posts: number[], url: string, method: string) => ({
    url,
    method,
    connections: LIKE_CONNECTIONS,
    durationMs,
    headers: (w: number) => bearer(data.tokens[clientOf(w)]!),
    body: (w: number, n: number) => JSON.stringify({ id: data.clientIds[clientOf(w)], feedId: posts[(w + n) % posts.length] }),
  });
  const measureRef = () => measured(spec(refPosts, `http://127.0.0.1:${reference.port}/like`, 'PUT'), reference);
  const measureApp = () => measured(spec(appPosts, `http://127.0.0.1:${app.port}/api/feeds/update-feed`, 'PUT'), app);
  const { median, rounds } = await pairedRounds('like toggles', LIKE_ROUNDS, measureRef, measureApp);
  // Like every app instance, the reference hears its own events (its NOTIFY is not work thrown away).
  if (!(await reference.ask<{ heard: number }>('heard')).heard) throw new Error('the reference heard none of its own events');
  // Exact under concurrency: the count the app shows equals the rows, for every post it toggled.
  const res = await fetch(`http://127.0.0.1:${app.port}/api/feeds/get-feeds?limit=50`, { headers: bearer(data.tokens[0]!) });
  const shown = new Map(((await res.json()) as { data: { id: number; likeCount: number }[] }).data.map((p) => [p.id, p.likeCount]));
  const { rows } = await db.query('select post_id, count(*)::int as n from feed_likes where post_id = any($1) group by post_id', [
    appPosts,
  ]);
  const actual = new Map<number, number>(appPosts.map((id) => [id, 0]));
  for (const r of rows) actual.set(r.post_id, r.n);
  const wrong = appPosts.filter((id) => shown.get(id) !== actual.get(id));
  if (wrong.length) throw new Error(`like counts are not exact after concurrent toggles: posts ${wrong.join(', ')}`);
  return { ...median, exact: true, rounds };
}

/**
 * Where a toggle's server CPU goes: the same toggle load on four servers in one process
 * (scripts/bench/layers-server.ts), from the whole app down to the bare statements.
 */
async function layers(env: Record<string, string>, data: BenchData): Promise<LayerRow[]> {
  log(`toggle CPU by layer: ${LIKE_CONNECTIONS} connections, ${seconds} s each`);
  const server = await startChild('layers', 'layers-server.ts', env);
  try {
    const { ports } = await server.ask<{ ports: Record<LayerName, number> }>('ports');
    const posts = data.postIds.slice(2 * LIKED_POSTS, 3 * LIKED_POSTS);
    const rows: LayerRow[] = [];
    for (const layer of LAYERS) {
      const path = layer === 'app' ? '/api/feeds/update-feed' : '/';
      const result = await measured(
        {
          url: `http://127.0.0.1:${ports[layer]}${path}`,
          method: 'PUT',
          connections: LIKE_CONNECTIONS,
          durationMs,
          headers: (w) => bearer(data.tokens[w % LIKE_CLIENTS]!),
          body: (w, n) => JSON.stringify({ id: data.clientIds[w % LIKE_CLIENTS], feedId: posts[(w + n) % posts.length] }),
        },
        server,
      );
      rows.push({ layer, result });
    }
    return rows;
  } finally {
    await server.stop();
  }
}

type Trigger = () => Promise<void>;

/**
 * One fan-out row: `count` subscribers of `server`, then `rounds` events
 * (and one to warm up). Once the sockets are open the serving process
 * collects its garbage, every server alike (the memory figure needs it too):
 * the events find it settled, as a server whose subscribers came over time,
 * not amid the garbage of thousands of sockets opened in seconds. Memory per
 * subscriber is reported when `withMemory`.
 */
async function fanout(label: string, target: Target, count: number, trigger: Trigger, rounds: number, server: Child, withMemory = false) {
  const before = await server.ask<{ rss: number; heap: number }>('memory');
  const opened = performance.now();
  const subs = await openSubscribers(target, count);
  log(`${label}: ${count} subscribers open in ${((performance.now() - opened) / 1000).toFixed(1)} s`);
  const after = await server.ask<{ rss: number; heap: number }>('memory');
  const latencies: number[] = [];
  let missing = 0;
  try {
    for (let round = 0; round <= rounds; round++) {
      const t0 = performance.now();
      const wait = subs.awaitEvent(t0, 30_000);
      await trigger();
      const got = await wait;
      if (round === 0) continue; // the first event warms up the path (JIT, caches); it is not counted
      for (const ms of got) {
        if (ms === null) missing += 1;
        else latencies.push(ms);
      }
    }
  } finally {
    await subs.close();
  }
  const sorted = sortedCopy(latencies);
  const row: FanoutRow = {
    label,
    subscribers: count,
    events: rounds,
    delivered: latencies.length,
    missing,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  };
  if (withMemory) {
    row.rssPerSubscriberKiB = (after.rss - before.rss) / count / 1024;
    row.heapPerSubscriberKiB = (after.heap - before.heap) / count / 1024;
  }
  log(`${label} ${count}: p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)}, p99 ${row.p99.toFixed(1)}, missing ${missing}`);
  return row;
}

/**
 * Messages: send → arrival at the other side with CONVERSATIONS open conversations, on one instance
 * and with the sender on a second, in bursts and one at a time; then sends per second over REST and tRPC.
 */
async function messages(app: Child, app2: Child, reference: Child, chat: ChatData, db: pg.Client): Promise<MessagesReport> {
  const n = chat.conversationIds.length;
  const rounds = smoke ? 1 : 3;
  const t = chatTargets(chat);
  log(`messages: ${n} open conversations (${2 * n} subscriptions), ${rounds} rounds of a message in each`);
  const rows = [];
  // A burst (50 sends at a time: queueing decides) and one message at a time (the path's own latency).
  for (const connections of [SEND_CONNECTIONS, 1]) {
    const withMemory = connections === SEND_CONNECTIONS;
    rows.push(
      await delivery(
        'least possible (reference)',
        t.reference(reference.port),
        n,
        t.referenceSend(reference.port),
        rounds,
        reference,
        log,
        {
          withMemory,
          connections,
        },
      ),
      await delivery('app, one instance', t.app(app.port), n, t.restSend(app.port), rounds, app, log, { withMemory, connections }),
      await delivery('app, sender on a second instance', t.app(app2.port), n, t.restSend(app.port), rounds, app2, log, { connections }),
    );
  }
  log(`sends: ${SEND_ROUNDS} paired round${SEND_ROUNDS === 1 ? '' : 's'} of ${seconds} s each, REST then tRPC`);
  const loads = sendLoads(chat, { app: app.port, reference: reference.port }, durationMs);
  const measureRef = () => measured(loads.reference, reference);
  const rest = await pairedRounds('sends, REST', SEND_ROUNDS, measureRef, () => measured(loads.rest, app));
  const trpc = await pairedRounds('sends, tRPC', SEND_ROUNDS, measureRef, () => measured(loads.trpc, app));
  // The same REST sends with the send reduced to the reference's statement: what the send's own rules cost.
  const { rows: saved } = await db.query<StoredSend>(STORED_SEND_SQL);
  await db.query(sendFloorSql(saved[0]!));
  const floor = await pairedRounds('sends, REST, without the rules', SEND_ROUNDS, measureRef, () => measured(loads.rest, app)).finally(() =>
    db.query(saved[0]!.sql),
  );
  return { date: new Date().toISOString(), loadavg: os.loadavg(), seconds, delivery: rows, sends: { rest, trpc, floor } };
}

async function postJson(url: string, method: string, token: string | null, body: unknown) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}`);
}

async function pgliteReads() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'poshan-bench-'));
  const app = await startChild('app-pglite', 'app-server.ts', { DATABASE_URL: '', DATA_DIR: dir }, { cpuProfileDir: profileDir });
  try {
    const { data } = await app.ask<{ data: BenchData }>('seed', { seed: SEED });
    log(
      `embedded database: /healthz and reads at ${READ_CONNECTIONS} connections, ${EMBEDDED_ROUNDS} paired round${EMBEDDED_ROUNDS === 1 ? '' : 's'} of ${seconds} s each`,
    );
    const base = { connections: READ_CONNECTIONS, durationMs };
    const healthz = () => measured({ ...base, url: `http://127.0.0.1:${app.port}/healthz` }, app);
    const read = () =>
      measured(
        {
          ...base,
          url: `http://127.0.0.1:${app.port}/api/feeds/get-feeds`,
          headers: (w) => bearer(data.tokens[w % data.tokens.length]!),
        },
        app,
      );
    const { median, rounds } = await pairedRounds('embedded read', EMBEDDED_ROUNDS, healthz, read);
    return { healthz: median.ref, rest: median.app, rounds, ceiling: await answersFromMemory(app.port, data) };
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The ceiling of the embedded read's ratio on this machine: the least possible server
 * (scripts/bench/answer-server.ts) sending the app's own answers from memory, its read
 * against its own /healthz, in paired rounds as the app's.
 */
async function answersFromMemory(appPort: number, data: BenchData) {
  const answers: Record<string, string> = {};
  for (const token of data.tokens) {
    const res = await fetch(`http://127.0.0.1:${appPort}/api/feeds/get-feeds`, { headers: bearer(token) });
    if (!res.ok) throw new Error(`the app answered ${res.status} to a feed read`);
    answers[token] = await res.text();
  }
  const server = await startChild('answers', 'answer-server.ts', {}, { cpuProfileDir: profileDir });
  try {
    await server.ask('answers', { answers });
    const base = { connections: READ_CONNECTIONS, durationMs };
    const healthz = () => measured({ ...base, url: `http://127.0.0.1:${server.port}/healthz` }, server);
    const read = () =>
      measured(
        { ...base, url: `http://127.0.0.1:${server.port}/feeds`, headers: (w) => bearer(data.tokens[w % data.tokens.length]!) },
        server,
      );
    const { median, rounds } = await pairedRounds('least possible embedded read', EMBEDDED_ROUNDS, healthz, read);
    return { ...median, rounds };
  } finally {
    await server.stop();
  }
}

async function main() {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `poshan_bench_${process.pid}`;
  const url = databaseUrl(base, dbName);
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  log(
    `${smoke ? 'smoke run' : 'full run'} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}`,
  );
  await admin(base, (c) => c.query(`create database "${dbName}"`));
  const children: Child[] = [];
  const db = new pg.Client({ connectionString: url });
  try {
    const handle = connectPostgres(url, 2);
    await migrateToLatest(handle.db);
    const data = await seedBench(handle.db, SEED);
    const chat = parts.has('messages') ? await seedConversations(handle.db, CONVERSATIONS) : null;
    await handle.close();
    await db.connect();
    meter = cpuMeter(db, dbName);
    // The reference logs its events in a table of its own (same shape, own identity), so the app never sees them as gaps.
    await db.query('create table bench_reference_events (like feed_events including all)');

    // Senders of the messages part send far more than a person may: the per-sender limit is lifted.
    const env = { DATABASE_URL: url, BENCH_DATABASE_URL: url, RATE_LIMIT_MESSAGES: '1000000/1s' };
    const [app, app2, reference] = await Promise.all([
      startChild('app', 'app-server.ts', env, { cpuProfileDir: profileDir }),
      startChild('app-2', 'app-server.ts', env),
      startChild('reference', 'reference-server.ts', env, { cpuProfileDir: profileDir }),
    ]);
    children.push(app, app2, reference);

    const readResults = parts.has('reads') ? await reads(app, reference, data) : null;
    const likeResults = parts.has('likes') ? await likes(app, reference, data, db) : null;
    const layerRows = parts.has('layers') ? await layers(env, data) : null;

    const liker = data.tokens.length - 1;
    const likerId = data.clientIds[liker]!;
    const likePost = data.postIds.at(-1)!;
    const likeOn = (server: Child) => () =>
      postJson(`http://127.0.0.1:${server.port}/api/feeds/update-feed`, 'PUT', data.tokens[liker]!, { id: likerId, feedId: likePost });
    const subscriberTokens = data.tokens.slice(0, -1);
    const fanoutRows: FanoutRow[] = [];
    for (const count of parts.has('fanout') ? sizes : []) {
      // Events are cheap next to opening the sockets; many of them keep one slow moment of the shared machine from deciding the percentiles.
      const rounds = smoke ? 2 : count >= 10_000 ? 12 : count >= 5000 ? 20 : 30;
      log(`fan-out to ${count} subscribers, ${rounds} events each`);
      // The least-possible fan-out (decision 109): the same like through the database, one frame written to every socket.
      fanoutRows.push(
        await fanout(
          'least possible (reference)',
          { kind: 'bare', wsUrl: `ws://127.0.0.1:${reference.port}/ws` },
          count,
          () => postJson(`http://127.0.0.1:${reference.port}/like`, 'PUT', data.tokens[liker]!, { feedId: likePost }),
          rounds,
          reference,
        ),
      );
      fanoutRows.push(
        await fanout(
          'app, one instance',
          { kind: 'app', wsUrl: `ws://127.0.0.1:${app.port}/trpc`, tokens: subscriberTokens },
          count,
          likeOn(app),
          rounds,
          app,
          true,
        ),
      );
      fanoutRows.push(
        await fanout(
          'app, like on a second instance',
          { kind: 'app', wsUrl: `ws://127.0.0.1:${app2.port}/trpc`, tokens: subscriberTokens },
          count,
          likeOn(app),
          rounds,
          app2,
        ),
      );
    }
    const messagesReport = chat ? await messages(app, app2, reference, chat, db) : null;
    await Promise.all(children.splice(0).map((c) => c.stop()));
    if (messagesReport) {
      const text = renderMessagesReport(messagesReport);
      console.log(`\n${text}\n`);
      if (!smoke) {
        writeBlock(args.get('out') ?? 'docs/benchmarks.md', 'messages', text, 'server');
        log(`wrote the messages section of ${args.get('out') ?? 'docs/benchmarks.md'}`);
      }
      // A message that never arrived is a lost message, not a slow one: the run fails (CI runs the smoke).
      const lost = messagesReport.delivery.filter((d) => d.missing > 0);
      if (lost.length > 0) throw new Error(`messages never delivered: ${lost.map((d) => `${d.label} ${d.missing}`).join(', ')}`);
    }

    const embedded = withPglite ? await pgliteReads() : null;
    const report: Report = {
      date: new Date().toISOString(),
      machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', node: process.version, loadavg: os.loadavg() },
      seconds,
      reads: readResults,
      likes: likeResults,
      layers: layerRows,
      fanout: fanoutRows,
      embedded,
    };
    printReport(report);
    if (outFile) {
      writeReport(outFile, report);
      log(`wrote ${outFile}`);
    }
    if (profileDir) log(`CPU profiles: ${profileDir}/app/ and ${profileDir}/reference/ (in each, the largest file is the main thread)`);
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await db.end().catch(() => {});
    await admin(base, (c) => c.query(`drop database if exists "${dbName}" with (force)`));
  }
}

// --observability: logs and metrics on vs off on the feed read, a separate run (scripts/bench-observability.ts).
const run = args.has('observability') ? import('./bench-observability.js') : main();
run.catch((err) => {
  console.error(`[bench] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
