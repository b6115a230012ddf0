import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { CpuCost } from './cpu.js';
import type { LoadResult } from './load.js';

/** A measured load and, on real Postgres, what each request cost in CPU. */
export type Measured = LoadResult & { cpu?: CpuCost };

export type FanoutRow = {
  label: string;
  subscribers: number;
  events: number;
  delivered: number;
  missing: number;
  p50: number;
  p95: number;
  p99: number;
  rssPerSubscriberKiB?: number;
  heapPerSubscriberKiB?: number;
};

/** The servers of scripts/bench/layers-server.ts, from the whole app down to bare statements. */
export const LAYERS = ['app', 'caller', 'service', 'raw'] as const;
export type LayerName = (typeof LAYERS)[number];
export type LayerRow = { layer: LayerName; result: Measured };

const LAYER_LABELS: Record<LayerName, [what: string, layerAbove: string]> = {
  app: ['the app: Hono, middleware, REST adapter, tRPC, service, Kysely', 'Hono, its middleware and the REST adapter'],
  caller: ['node:http, then the tRPC caller and below', 'tRPC: context, middleware, zod in and out'],
  service: ['node:http, then the feed service and below', 'the service: turns, Kysely, the feed bus'],
  raw: ['node:http and pg: the same statements, nothing else', ''],
};

/** The reference and the app measured one after the other, under the same load. */
export type PairedRound = { ref: Measured; app: Measured };

export type Report = {
  date: string;
  machine: { cores: number; cpu: string; node: string; loadavg: number[] };
  seconds: number;
  reads: { ref: Measured; rest: Measured; trpc: Measured } | null;
  /** The round with the median ratio, and every round. */
  likes: (PairedRound & { exact: boolean; rounds?: PairedRound[] }) | null;
  layers?: LayerRow[] | null;
  fanout: FanoutRow[];
  /** The round with the median ratio (read over /healthz), and every round. */
  embedded: {
    healthz: Measured;
    rest: Measured;
    rounds?: PairedRound[];
    /** The least possible server with the same answers in memory: its /healthz (ref) and read (app). */
    ceiling?: PairedRound & { rounds: PairedRound[] };
  } | null;
};

export const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : '–');
const rps = (r: LoadResult) => `${Math.round(r.rps).toLocaleString('en-US')}/s`;
export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
export const load = (r: LoadResult) => `${rps(r)}, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}${r.failed ? `, ${r.failed} failed` : ''}`;

export function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

export const cpu = (m: Measured) => (m.cpu ? `${m.cpu.serverMs.toFixed(3)} + ${m.cpu.dbMs.toFixed(3)}` : '–');
export const serverCpu = (m: Measured) => (m.cpu ? `${(m.cpu.serverMs * 1000).toFixed(0)} µs` : '–');
const cpuTotal = (m: Measured) => (m.cpu ? m.cpu.serverMs + m.cpu.dbMs : Number.NaN);

function cpuTable({ reads, likes }: Report): string[][] {
  const pairs: [string, Measured, Measured][] = [];
  if (reads) pairs.push(['feed read, REST', reads.rest, reads.ref], ['feed read, tRPC', reads.trpc, reads.ref]);
  if (likes) pairs.push(['like toggle', likes.app, likes.ref]);
  return pairs.filter(([, a, b]) => a.cpu && b.cpu).map(([work, a, b]) => [work, cpu(a), cpu(b), ratio(cpuTotal(b), cpuTotal(a))]);
}

export function renderReport(r: Report): string {
  const out: string[] = [];
  out.push(
    `Run ${r.date.slice(0, 16).replace('T', ' ')} UTC on ${r.machine.cores} cores (${r.machine.cpu}), Node ${r.machine.node}, ` +
      `load average ${r.machine.loadavg.map((l) => l.toFixed(2)).join(' / ')} at the end; ${r.seconds} s per measurement after a warm-up. ` +
      'The load generator shares the cores with the servers, and the machine is shared: compare the ratios within this run.',
  );
  out.push('');
  const { reads, likes } = r;
  const rows: string[][] = [];
  if (reads) {
    rows.push([
      'feed read, REST `GET /api/feeds/get-feeds`, 50 connections',
      load(reads.rest),
      load(reads.ref),
      ratio(reads.rest.rps, reads.ref.rps),
    ]);
    rows.push(['feed read, tRPC `feed.list`, 50 connections', load(reads.trpc), load(reads.ref), ratio(reads.trpc.rps, reads.ref.rps)]);
  }
  if (likes) {
    rows.push([
      `like toggles, 8 clients, 32 connections (counts ${likes.exact ? 'exact' : 'NOT exact'})`,
      load(likes.app),
      load(likes.ref),
      ratio(likes.app.rps, likes.ref.rps),
    ]);
  }
  if (rows.length) {
    out.push('### Requests (real Postgres)', '');
    out.push(table(['work', 'Poshan', 'least possible server, same run', 'ratio'], rows), '');
    const rounds = likes?.rounds ?? [];
    if (rounds.length > 1) {
      const each = (f: (round: PairedRound) => string) => rounds.map(f).join(', ');
      out.push(
        `Like toggles were measured in ${rounds.length} paired rounds, the reference and the app one after the other, the one going first ` +
          `alternating; the table shows the round with the median ratio. Throughput ratio per round: ${each((x) => ratio(x.app.rps, x.ref.rps))}; ` +
          `CPU ratio per round: ${each((x) => ratio(cpuTotal(x.ref), cpuTotal(x.app)))}.`,
        '',
      );
    }
    const cpuRows = cpuTable(r);
    if (cpuRows.length) {
      out.push(
        'CPU each request cost, in ms (the server process, then the Postgres backends serving it), read from `/proc` around the same ' +
          "measurements. A busy machine moves these far less than throughput; the ratio is the reference's total over Poshan's.",
        '',
      );
      out.push(table(['work', 'Poshan: server + database', 'reference: server + database', 'ratio'], cpuRows), '');
    }
  }
  if (r.layers?.length) {
    const cpu = (row: LayerRow) => row.result.cpu?.serverMs ?? Number.NaN;
    out.push(
      "### Where a like toggle's server CPU goes",
      '',
      'The same toggle load (32 connections) on four servers in one process (scripts/bench/layers-server.ts), each with one layer fewer; ' +
        "CPU of that process per toggle, in ms. A layer's cost is its row less the next; the database's share is in the table above.",
      '',
      table(
        ['server', 'toggles', 'server CPU per toggle', 'of which this layer'],
        r.layers.map((row, i) => {
          const below = r.layers![i + 1];
          const [what, layer] = LAYER_LABELS[row.layer];
          return [
            what,
            `${Math.round(row.result.rps).toLocaleString('en-US')}/s`,
            `${cpu(row).toFixed(3)} ms`,
            below ? `${layer}: ${(cpu(row) - cpu(below)).toFixed(3)} ms` : '',
          ];
        }),
      ),
      '',
    );
  }
  if (r.fanout.length)
    out.push(
      '### A like reaching live subscribers',
      '',
      'Latency from sending the like to each socket receiving it; the first event of each size warms up and is not counted. The least-possible fan-out (decision 109) takes the same like through the database and writes one frame, made once, straight to every socket.',
      '',
    );
  const least = new Map(r.fanout.filter((f) => f.label.startsWith('least')).map((f) => [f.subscribers, f]));
  if (r.fanout.length)
    out.push(
      table(
        ['subscribers', 'server', 'events', 'delivered', 'p50', 'p95', 'p99', 'vs least possible p50 / p99'],
        r.fanout.map((f) => {
          const b = least.get(f.subscribers);
          const vs = b && f !== b ? `${ratio(f.p50, b.p50)} / ${ratio(f.p99, b.p99)}` : '';
          const delivered = `${((100 * f.delivered) / (f.delivered + f.missing)).toFixed(f.missing ? 2 : 0)}%${f.missing ? ` (${f.missing} missing)` : ''}`;
          return [f.subscribers.toLocaleString('en-US'), f.label, String(f.events), delivered, ms(f.p50), ms(f.p95), ms(f.p99), vs];
        }),
      ),
    );
  const second = r.fanout
    .filter((f) => f.label.includes('second'))
    .map((f) => {
      const one = r.fanout.find((o) => o.subscribers === f.subscribers && o.label.includes('one instance'));
      return one ? `${f.subscribers.toLocaleString('en-US')}: ${(f.p95 - one.p95).toFixed(1)} ms` : '';
    })
    .filter(Boolean);
  if (second.length) out.push('', `A second instance adds at p95: ${second.join('; ')}.`);
  const mem = r.fanout.filter((f) => f.rssPerSubscriberKiB !== undefined);
  if (mem.length) {
    out.push(
      '',
      `Memory per idle subscriber (app process, after GC): ${mem
        .map(
          (f) =>
            `${f.subscribers.toLocaleString('en-US')} → ${f.rssPerSubscriberKiB!.toFixed(1)} KiB RSS, ${f.heapPerSubscriberKiB!.toFixed(1)} KiB heap + external`,
        )
        .join('; ')}.`,
    );
  }
  if (r.embedded) {
    out.push('', '### Embedded database (PGlite)', '');
    out.push(
      table(
        ['work', 'Poshan', 'server CPU per request', 'ratio to its own `/healthz`'],
        [
          ['`GET /healthz`, 50 connections', load(r.embedded.healthz), serverCpu(r.embedded.healthz), '1.00×'],
          [
            'feed read, REST, 50 connections',
            load(r.embedded.rest),
            serverCpu(r.embedded.rest),
            ratio(r.embedded.rest.rps, r.embedded.healthz.rps),
          ],
          ...(r.embedded.ceiling
            ? [
                ['least possible server: `/healthz`', load(r.embedded.ceiling.ref), serverCpu(r.embedded.ceiling.ref), '1.00×'],
                [
                  'least possible server: the same answers from memory',
                  load(r.embedded.ceiling.app),
                  serverCpu(r.embedded.ceiling.app),
                  ratio(r.embedded.ceiling.app.rps, r.embedded.ceiling.ref.rps),
                ],
              ]
            : []),
        ],
      ),
    );
    const rounds = r.embedded.rounds ?? [];
    if (rounds.length > 1) {
      out.push(
        '',
        `Measured in ${rounds.length} paired rounds, \`/healthz\` and the read one after the other, the one going first alternating; ` +
          `the table shows the round with the median ratio. Ratio per round: ${rounds.map((x) => ratio(x.app.rps, x.ref.rps)).join(', ')}.`,
      );
    }
    if (r.embedded.ceiling) {
      out.push(
        '',
        'The least possible server (scripts/bench/answer-server.ts: node:http, the answers the app gave, kept in memory per token) ' +
          `shows the most this machine allows for an answer of that size: its read reached ${ratio(r.embedded.ceiling.app.rps, r.embedded.ceiling.ref.rps)} ` +
          `of its own \`/healthz\` (per round: ${r.embedded.ceiling.rounds.map((x) => ratio(x.app.rps, x.ref.rps)).join(', ')}).`,
      );
    }
  }
  return out.join('\n');
}

export function printReport(r: Report) {
  console.log(`\n${renderReport(r)}\n`);
}

/**
 * Replaces the block between `<!-- bench:<name>:start -->` and its end marker in the file (other
 * sections, such as Lighthouse, stay as they are); a new block goes after `after`'s block, else at the end.
 */
export function writeBlock(file: string, name: string, body: string, after?: string) {
  const [start, end] = [`<!-- bench:${name}:start -->`, `<!-- bench:${name}:end -->`];
  const section = `${start}\n${body}\n${end}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const at = current.indexOf(start);
  const to = current.indexOf(end);
  if (at >= 0 && to > at) return writeFileSync(file, `${current.slice(0, at)}${section}${current.slice(to + end.length)}`);
  const afterEnd = after ? `<!-- bench:${after}:end -->` : '';
  const anchor = afterEnd ? current.indexOf(afterEnd) : -1;
  writeFileSync(
    file,
    anchor >= 0
      ? `${current.slice(0, anchor + afterEnd.length)}\n\n${section}${current.slice(anchor + afterEnd.length)}`
      : `${current.trimEnd()}\n\n${section}\n`,
  );
}

/** Replaces the Server section of the file. */
export function writeReport(file: string, r: Report) {
  writeBlock(file, 'server', `## Server\n\nWritten by \`npm run bench\` (scripts/bench.ts).\n\n${renderReport(r)}`);
}
