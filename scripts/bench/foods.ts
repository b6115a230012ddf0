/**
 * Food search against the bare statement it runs, side by side in one run (docs/benchmarks.md, "Food search").
 *
 *   npx tsx scripts/bench/foods.ts              full run: writes its section of docs/benchmarks.md
 *   npx tsx scripts/bench/foods.ts --smoke      a few rounds, nothing written
 *   options: --foods=N (10,000)  --rounds=N (40)  --warmup=N (3)  --no-pglite  --out=FILE (written only by a full run unless given)
 *
 * 10,000 foods with English and Hindi names and aliases are written to a fresh Postgres database
 * (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres;
 * poshan_bench_foods_<pid>, dropped afterwards) and to an in-memory PGlite. Each search text is then
 * answered, one request at a time, three ways: the bare statement (searchFoodsQuery's own text and
 * parameters, prepared, through the driver, nothing around it), the app's service (searchFoods:
 * Kysely, the pool, shaping rows into FoodSummary), the same bare statement behind the least HTTP
 * server (node:http, rows as JSON) and REST (`GET /api/foods`: HTTP, the session check, the
 * procedure's validation, the envelope). The order rotates every round, so drift on a shared
 * machine falls on each alike. Targets: the service within 1.5× of the bare statement, REST within
 * 1.5× of the bare statement over HTTP.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { issueSession } from '../../server/auth/sessions-repo.js';
import { ROLE } from '../../server/auth/roles.js';
import { connectPostgres, PGLITE_EXTENSIONS, SESSION_SETTINGS } from '../../server/db/connect.js';
import type { Database } from '../../server/db/index.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { searchFoodsQuery } from '../../server/nutrition/foods-repo.js';
import { SEARCH_LIMIT_DEFAULT } from '../../server/nutrition/foods-schema.js';
import { noteFoodUse, searchFoods } from '../../server/nutrition/search.js';
import { percentile, sortedCopy } from './load.js';
import { writeBlock } from './report.js';
import { seedBenchFoods } from './seed-foods.js';

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k!, v ?? 'true'] as const;
  }),
);
const smoke = args.has('smoke');
const FOODS = Number(args.get('foods') ?? (smoke ? 1000 : 10_000));
const ROUNDS = Number(args.get('rounds') ?? (smoke ? 3 : 40));
const WARMUP_ROUNDS = Number(args.get('warmup') ?? (smoke ? 1 : 3));
const withPglite = !args.has('no-pglite');
const outFile = args.get('out') ?? (smoke || args.has('foods') || args.has('rounds') ? undefined : 'docs/benchmarks.md');
const LIMIT = SEARCH_LIMIT_DEFAULT;

/** What people type: whole names, typos, transliterations, Devanagari, two letters, several words. */
const QUERIES = [
  'paneer',
  'panner',
  'toor dal',
  'arhar',
  'पनीर',
  'आलू',
  'aloo gobi',
  'ro',
  'kerala fish curry',
  'bhindi',
  'chiken',
  'masala dosa',
];

const log = (line: string) => console.log(`[bench:foods] ${line}`);

type Path = { name: string; run: (q: string) => Promise<number> };
type Stats = { p50: number; mean: number; p95: number; samples: number };

/** Every path answers every query ROUNDS times, one call at a time, the paths' order rotating each round. */
async function measure(paths: Path[]): Promise<Map<string, Stats>> {
  const times = new Map(paths.map((p) => [p.name, [] as number[]]));
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    for (const q of QUERIES) {
      for (let i = 0; i < paths.length; i++) {
        const path = paths[(round + i) % paths.length]!;
        const start = performance.now();
        const found = await path.run(q);
        const ms = performance.now() - start;
        if (found === 0 && q !== 'chiken') throw new Error(`${path.name} found nothing for "${q}"`);
        if (round >= WARMUP_ROUNDS) times.get(path.name)!.push(ms);
      }
    }
  }
  return new Map(
    [...times].map(([name, list]) => {
      const sorted = sortedCopy(list);
      return [
        name,
        {
          p50: percentile(sorted, 50),
          p95: percentile(sorted, 95),
          mean: list.reduce((a, b) => a + b, 0) / list.length,
          samples: list.length,
        },
      ];
    }),
  );
}

/** The same answers from each path, or the comparison means nothing. */
async function sameAnswers(paths: { name: string; ids: (q: string) => Promise<number[]> }[]) {
  for (const q of QUERIES) {
    const [first, ...rest] = await Promise.all(paths.map((p) => p.ids(q)));
    for (const [i, ids] of rest.entries()) {
      if (JSON.stringify(ids) !== JSON.stringify(first))
        throw new Error(`${paths[i + 1]!.name} answers "${q}" differently from ${paths[0]!.name}`);
    }
  }
}

const ms = (v: number) => `${v.toFixed(2)} ms`;
const ratio = (app: Stats, bare: Stats) => `${(app.p50 / bare.p50).toFixed(2)}× / ${(app.mean / bare.mean).toFixed(2)}×`;

async function onPostgres(): Promise<{ stats: Map<string, Stats>; names: number }> {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `poshan_bench_foods_${process.pid}`;
  const url = new URL(base);
  url.pathname = `/${dbName}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database "${dbName}"`);
  const handle = connectPostgres(url.toString(), 4);
  const bare = new pg.Client({ connectionString: url.toString() });
  const { startBenchApp } = await import('./bench-app.js');
  let app: Awaited<ReturnType<typeof startBenchApp>> | undefined;
  let reference: http.Server | undefined;
  try {
    await migrateToLatest(handle.db);
    const seeded = await seedBenchFoods(handle.db, FOODS);
    const [user] = await handle.db
      .insertInto('users')
      .values({ email: 'foods@poshan.bench', first_name: 'Bench', last_name: 'Dietitian', role: ROLE.admin, password_hash: null })
      .returning('id')
      .execute();
    await noteFoodUse(handle.db, user!.id, seeded.usedIds);
    const { token } = await issueSession(handle.db, user!.id);
    await bare.connect();
    await bare.query(SESSION_SETTINGS);
    process.env.DATABASE_URL = url.toString();
    app = await startBenchApp();
    const appUrl = `http://127.0.0.1:${app.server.port}`;
    log(`postgres: ${FOODS} foods, ${seeded.names} names; ${QUERIES.length} queries × ${ROUNDS} rounds`);

    let statement = 0;
    const names = new Map<string, string>();
    const bareRows = async (q: string) => {
      const compiled = searchFoodsQuery(q, user!.id, LIMIT).compile(handle.db);
      // Prepared once per text, as the app's pool prepares its statements.
      if (!names.has(compiled.sql)) names.set(compiled.sql, `bench_food_search_${statement++}`);
      return (await bare.query({ name: names.get(compiled.sql), text: compiled.sql, values: compiled.parameters as unknown[] })).rows as {
        id: number;
      }[];
    };
    // The least an HTTP answer of the bare statement costs: node:http, the rows as JSON, nothing else.
    reference = http.createServer((req, res) => {
      const q = new URL(req.url ?? '/', 'http://localhost').searchParams.get('q') ?? '';
      bareRows(q).then(
        (rows) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ data: rows }));
        },
        (err: Error) => {
          res.writeHead(500);
          res.end(err.message);
        },
      );
    });
    await new Promise<void>((resolve) => reference!.listen(0, '127.0.0.1', resolve));
    const referenceUrl = `http://127.0.0.1:${(reference.address() as AddressInfo).port}`;
    const overHttp = async (q: string) => {
      const res = await fetch(`${referenceUrl}/search?q=${encodeURIComponent(q)}`);
      if (res.status !== 200) throw new Error(`the reference answered ${res.status}`);
      return ((await res.json()) as { data: { id: number }[] }).data;
    };
    const rest = async (q: string) => {
      const res = await fetch(`${appUrl}/api/foods?q=${encodeURIComponent(q)}&limit=${LIMIT}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (res.status !== 200) throw new Error(`GET /api/foods answered ${res.status}`);
      return ((await res.json()) as { data: { id: number }[] }).data;
    };
    await sameAnswers([
      { name: 'the bare statement', ids: async (q) => (await bareRows(q)).map((r) => r.id) },
      { name: 'the service', ids: async (q) => (await searchFoods(handle.db, user!.id, q, LIMIT)).map((f) => f.id) },
      { name: 'REST', ids: async (q) => (await rest(q)).map((f) => f.id) },
      { name: 'the bare statement over HTTP', ids: async (q) => (await overHttp(q)).map((f) => f.id) },
    ]);
    const stats = await measure([
      { name: 'bare', run: async (q) => (await bareRows(q)).length },
      { name: 'service', run: async (q) => (await searchFoods(handle.db, user!.id, q, LIMIT)).length },
      { name: 'rest', run: async (q) => (await rest(q)).length },
      { name: 'http', run: async (q) => (await overHttp(q)).length },
    ]);
    return { stats, names: seeded.names };
  } finally {
    await new Promise((resolve) => (reference ? reference.close(resolve) : resolve(undefined)));
    await app?.server.close();
    await app?.handle.close();
    await bare.end().catch(() => {});
    await handle.close();
    await admin.query(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
  }
}

async function onPglite(): Promise<Map<string, Stats>> {
  const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  await client.exec(SESSION_SETTINGS);
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  try {
    await migrateToLatest(db);
    const seeded = await seedBenchFoods(db, FOODS);
    const { id: userId } = await db
      .insertInto('users')
      .values({
        email: 'foods@poshan.bench',
        first_name: 'Bench',
        last_name: 'Dietitian',
        role: ROLE.admin,
        password_hash: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await noteFoodUse(db, userId, seeded.usedIds);
    log(`pglite: ${FOODS} foods, ${seeded.names} names`);
    const bareRows = async (q: string) => {
      const compiled = searchFoodsQuery(q, userId, LIMIT).compile(db);
      return (await client.query<{ id: number }>(compiled.sql, compiled.parameters as unknown[])).rows;
    };
    await sameAnswers([
      { name: 'the bare statement', ids: async (q) => (await bareRows(q)).map((r) => r.id) },
      { name: 'the service', ids: async (q) => (await searchFoods(db, userId, q, LIMIT)).map((f) => f.id) },
    ]);
    return await measure([
      { name: 'bare', run: async (q) => (await bareRows(q)).length },
      { name: 'service', run: async (q) => (await searchFoods(db, userId, q, LIMIT)).length },
    ]);
  } finally {
    await db.destroy();
  }
}

log(`${smoke ? 'smoke run' : 'full run'} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}`);
const started = new Date();
const postgres = await onPostgres();
const pglite = withPglite ? await onPglite() : null;

const row = (database: string, path: string, s: Stats, bare: Stats | null) =>
  `| ${database} | ${path} | ${ms(s.p50)} | ${ms(s.mean)} | ${ms(s.p95)} | ${bare ? ratio(s, bare) : '1 (reference)'} |`;
const pgBare = postgres.stats.get('bare')!;
const pgService = postgres.stats.get('service')!;
const pgHttp = postgres.stats.get('http')!;
const pgRest = postgres.stats.get('rest')!;
const lines = [
  '## Food search',
  '',
  'Written by `npx tsx scripts/bench/foods.ts`.',
  '',
  `Run ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(
      ' / ',
    )} at the end. ${FOODS.toLocaleString('en-IN')} foods (${postgres.names.toLocaleString('en-IN')} English, Hindi and alias names, 50 of them the searcher's recent foods); ${QUERIES.length} search texts (${QUERIES.map((q) => `“${q}”`).join(', ')}), ${ROUNDS} rounds after ${WARMUP_ROUNDS} of warm-up, one call at a time, limit ${LIMIT}. The paths answer each text alike (checked); their order rotates every round. The machine is shared: compare within the run.`,
  '',
  '| database | path | p50 | mean | p95 | against its reference (p50 / mean) |',
  '|---|---|---|---|---|---|',
  row('Postgres', 'bare statement (prepared, through `pg`)', pgBare, null),
  row('Postgres', 'service `searchFoods` (Kysely, pool, FoodSummary)', pgService, pgBare),
  row('Postgres', 'the bare statement over HTTP (`node:http`, JSON)', pgHttp, null),
  row('Postgres', 'REST `GET /api/foods` (HTTP, session, validation, envelope)', pgRest, pgHttp),
  ...(pglite
    ? [
        row('PGlite', 'bare statement (`client.query`)', pglite.get('bare')!, null),
        row('PGlite', 'service `searchFoods`', pglite.get('service')!, pglite.get('bare')!),
      ]
    : []),
  '',
  `Target: the service within 1.5× of the bare statement: ${pgService.p50 / pgBare.p50 <= 1.5 ? 'met' : 'not met'} on Postgres (${(pgService.p50 / pgBare.p50).toFixed(2)}× at p50)${
    pglite
      ? `, ${pglite.get('service')!.p50 / pglite.get('bare')!.p50 <= 1.5 ? 'met' : 'not met'} on PGlite (${(pglite.get('service')!.p50 / pglite.get('bare')!.p50).toFixed(2)}×)`
      : ''
  }; REST within 1.5× of the bare statement served over HTTP: ${pgRest.p50 / pgHttp.p50 <= 1.5 ? 'met' : 'not met'} (${(pgRest.p50 / pgHttp.p50).toFixed(2)}× at p50). Against the bare statement itself REST is ${(pgRest.p50 / pgBare.p50).toFixed(2)}×: what an HTTP call costs on this machine, the same for every route.`,
];
const text = lines.join('\n');
console.log(`\n${text}\n`);
if (outFile) {
  writeBlock(outFile, 'foods', text);
  log(`wrote the food search section of ${outFile}`);
}
process.exit(0);
