/**
 * The messages part of `npm run bench`, each figure against the
 * least possible server (reference-server.ts) in the same run:
 * - send → arrival at the other side's open subscription, with `n` open
 *   conversations (2n sockets: the client's and a dietitian's of each), a
 *   message in each conversation per round; the same with the sender on a
 *   second instance;
 * - sends per second over REST and over tRPC at 50 connections, against the
 *   same insert, seq and NOTIFY in one statement;
 * - memory per idle open conversation subscription.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import type { Kysely } from 'kysely';
import { issueSession } from '../../server/auth/sessions-repo.js';
import { ROLE } from '../../server/auth/roles.js';
import type { Database } from '../../server/db/index.js';
import type { Child } from './children.js';
import { percentile, sortedCopy, type LoadSpec } from './load.js';
import { insertBenchClients } from './seed.js';
import { cpu, load, ms, type PairedRound, ratio, table } from './report.js';
import { openSubscribers, type Target } from './subscribers.js';

export type ChatData = { clientTokens: string[]; clientIds: number[]; conversationIds: number[]; dietitianToken: string };

export const SEND_CONNECTIONS = 50;
/** How long a round waits for its messages to arrive, from its first send. */
const ARRIVAL_WAIT_MS = 300_000;
const TEXT = 'Bench message: had poha with peanuts for breakfast, then a long walk. नमस्ते 🙏';

/** `count` clients, each with a session and a conversation, and one dietitian with a session. */
export async function seedConversations(db: Kysely<Database>, count: number): Promise<ChatData> {
  const dietitian = await db
    .insertInto('users')
    .values({ email: 'bench-dietitian@poshan.bench', first_name: 'Bench', last_name: 'Dietitian', role: ROLE.admin, password_hash: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const clientIds = await insertBenchClients(db, count, 'bench-chat', 'Chat');
  const conversations = await db
    .insertInto('conversations')
    .values(clientIds.map((client_id) => ({ client_id })))
    .returning(['id', 'client_id'])
    .execute();
  const byClient = new Map(conversations.map((c) => [c.client_id, c.id]));
  const clientTokens: string[] = [];
  for (const id of clientIds) clientTokens.push((await issueSession(db, id)).token);
  return {
    clientTokens,
    clientIds,
    conversationIds: clientIds.map((id) => byClient.get(id)!),
    dietitianToken: (await issueSession(db, dietitian.id)).token,
  };
}

export type DeliveryRow = {
  label: string;
  /** Sends under way at once: SEND_CONNECTIONS (a burst) or 1 (one message at a time, each alone on the path). */
  connections: number;
  conversations: number;
  messages: number;
  delivered: number;
  missing: number;
  p50: number;
  p95: number;
  p99: number;
  /** Per open subscription (2 per conversation), after GC, in KiB. */
  rssPerSubscriptionKiB?: number;
  heapPerSubscriptionKiB?: number;
};

export type Sender = (conversation: number) => Promise<void>;

/** Sends one message in each of `n` conversations, `connections` at a time; resolves with each send's start time. */
async function sendEach(n: number, send: Sender, connections: number) {
  const started = new Float64Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      started[i] = performance.now();
      await send(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(connections, n) }, worker));
  return started;
}

/**
 * One delivery row: 2n subscribers (socket i < n is conversation i's client, socket n + i its
 * dietitian) on `target`, then `rounds` rounds (and one to warm up) of a message from each
 * client, `connections` sends at a time, timed from the start of its send to its arrival at the
 * dietitian's socket.
 */
export async function delivery(
  label: string,
  target: Target,
  n: number,
  send: Sender,
  rounds: number,
  server: Child,
  log: (line: string) => void,
  opts: { withMemory?: boolean; connections?: number } = {},
): Promise<DeliveryRow> {
  const { withMemory = false, connections = SEND_CONNECTIONS } = opts;
  const before = await server.ask<{ rss: number; heap: number }>('memory');
  const opened = performance.now();
  const subs = await openSubscribers(target, 2 * n);
  log(
    `${label}: ${2 * n} subscriptions open in ${((performance.now() - opened) / 1000).toFixed(1)} s` +
      (subs.retried ? ` (${subs.retried} refused with 503 at first, opened on a later attempt)` : ''),
  );
  const after = await server.ask<{ rss: number; heap: number }>('memory');
  const others = Array.from({ length: n }, (_, i) => n + i);
  const latencies: number[] = [];
  let missing = 0;
  try {
    for (let round = 0; round <= rounds; round++) {
      // Room for the sends themselves on a busy machine: a message is missing only if it never arrives.
      const arrivals = subs.awaitArrivals(others, ARRIVAL_WAIT_MS);
      const started = await sendEach(n, send, connections);
      const got = await arrivals;
      if (round === 0) continue; // warms up the path (JIT, caches, prepared statements)
      got.forEach((t, i) => {
        if (t === null) missing += 1;
        else latencies.push(t - started[i]!);
      });
    }
  } finally {
    await subs.close();
  }
  const sorted = sortedCopy(latencies);
  const row: DeliveryRow = {
    label,
    connections,
    conversations: n,
    messages: rounds * n,
    delivered: latencies.length,
    missing,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  };
  if (withMemory) {
    row.rssPerSubscriptionKiB = (after.rss - before.rss) / (2 * n) / 1024;
    row.heapPerSubscriptionKiB = (after.heap - before.heap) / (2 * n) / 1024;
  }
  log(`${label}: p50 ${ms(row.p50)}, p95 ${ms(row.p95)}, p99 ${ms(row.p99)}, missing ${missing}`);
  return row;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: SEND_CONNECTIONS });

function post(url: string, token: string, body: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = http.request(
      url,
      {
        agent,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        res.resume();
        res.on('end', () => ((res.statusCode ?? 500) < 300 ? resolve() : reject(new Error(`POST ${url} answered ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** Senders and subscription targets of the app and of the reference for `data`'s conversations. */
export function chatTargets(data: ChatData) {
  const n = data.conversationIds.length;
  const isMessage = (frame: Buffer) => frame.includes('"kind":"message"');
  const tokens = [...data.clientTokens, ...Array.from({ length: n }, () => data.dietitianToken)];
  return {
    app: (port: number): Target => ({
      kind: 'app',
      wsUrl: `ws://127.0.0.1:${port}/trpc`,
      tokens,
      subscription: (i) => ({ path: 'messages.events', input: { conversationId: data.conversationIds[i % n] } }),
      event: isMessage,
    }),
    reference: (port: number): Target => ({
      kind: 'bare',
      wsUrl: (i) => `ws://127.0.0.1:${port}/ws/messages?c=${data.conversationIds[i % n]}`,
      event: isMessage,
    }),
    restSend:
      (port: number): Sender =>
      (i) =>
        post(`http://127.0.0.1:${port}/api/conversations/${data.conversationIds[i]}/messages`, data.clientTokens[i]!, {
          text: TEXT,
          clientMessageId: randomUUID(),
        }),
    referenceSend:
      (port: number): Sender =>
      (i) =>
        post(`http://127.0.0.1:${port}/messages`, data.clientTokens[i]!, {
          conversationId: data.conversationIds[i],
          text: TEXT,
          clientMessageId: randomUUID(),
        }),
  };
}

/** Load specs of sends at 50 connections: worker w is client w, in its own conversation. */
export function sendLoads(data: ChatData, ports: { app: number; reference: number }, durationMs: number) {
  const base = {
    method: 'POST',
    connections: SEND_CONNECTIONS,
    durationMs,
    headers: (w: number) => ({ authorization: `Bearer ${data.clientTokens[w]}` }),
    check: (status: number, body: string) => {
      if (status >= 300) throw new Error(`a send answered ${status}: ${body.slice(0, 200)}`);
    },
  };
  const rest: LoadSpec = {
    ...base,
    url: `http://127.0.0.1:${ports.app}/`,
    path: (w) => `/api/conversations/${data.conversationIds[w]}/messages`,
    body: () => JSON.stringify({ text: TEXT, clientMessageId: randomUUID() }),
  };
  const trpc: LoadSpec = {
    ...base,
    url: `http://127.0.0.1:${ports.app}/trpc/messages.send`,
    body: (w) => JSON.stringify({ json: { conversationId: data.conversationIds[w], text: TEXT, clientMessageId: randomUUID() } }),
  };
  const reference: LoadSpec = {
    ...base,
    url: `http://127.0.0.1:${ports.reference}/messages`,
    body: (w) => JSON.stringify({ conversationId: data.conversationIds[w], text: TEXT, clientMessageId: randomUUID() }),
  };
  return { rest, trpc, reference };
}

export type MessagesReport = {
  date: string;
  loadavg: number[];
  seconds: number;
  delivery: DeliveryRow[];
  sends: {
    rest: { median: PairedRound; rounds: PairedRound[] };
    trpc: { median: PairedRound; rounds: PairedRound[] };
    /** REST again with `message_send` doing only the reference's statement (sendFloorSql): what the send's rules cost. */
    floor?: { median: PairedRound; rounds: PairedRound[] };
  } | null;
};

/**
 * The send without its rules (bench database only): `message_send` with its signature and answer kept, doing
 * for each send only what the reference's statement does (the seq, the insert, the NOTIFY carrying the row).
 * Every rule a real send keeps (the repeat check, the rate limit, who may write, office hours, the read mark,
 * pushes, the away reply) is left out, so the difference between REST sends against it and against the real
 * function is what those rules cost; the rest (Hono, the session, zod, the service, Kysely, the batching of
 * send-batch.ts) is the same. The real function is put back after (STORED_SEND_SQL).
 */
export function sendFloorSql(stored: StoredSend): string {
  // The signature and the answer's columns come from the stored function, so they cannot drift from its source file.
  return `
  create or replace function message_send(${stored.args}) returns ${stored.result}
  language plpgsql volatile as $$
  #variable_conflict use_column
  declare s record; c record; m record;
  begin
    for s in select * from rows from (jsonb_to_recordset(p_sends) as (conversation_id integer, sender_id integer,
        sender_role text, client_message_id uuid, text text, at timestamptz))
        with ordinality as x(conversation_id, sender_id, sender_role, client_message_id, text, at, n) loop
      update conversations cv set last_seq = cv.last_seq + 1, last_message_at = s.at, last_sender_role = s.sender_role
       where cv.id = s.conversation_id and cv.client_id = s.sender_id returning cv.id, cv.client_id, cv.last_seq into c;
      insert into messages (conversation_id, seq, sender_id, sender_role, client_message_id, text, sent_at)
      values (c.id, c.last_seq, s.sender_id, s.sender_role, s.client_message_id, s.text, s.at) returning messages.id into m;
      perform pg_notify(p_channel, json_build_object('kind', 'message', 'conversationId', c.id, 'seq', c.last_seq,
        'row', json_build_object('id', m.id, 'conversation_id', c.id, 'seq', c.last_seq, 'sender_id', s.sender_id,
          'sender_role', s.sender_role, 'client_message_id', s.client_message_id, 'text', s.text, 'sent_at', s.at,
          'sender_first', '', 'sender_last', ''))::text);
      return query select s.n::integer, 'sent'::text, null::timestamptz, c.client_id, '{}'::integer[],
        m.id, c.id, c.last_seq, s.sender_id, s.sender_role, s.client_message_id, s.text, s.at, ''::text, ''::text;
    end loop;
  end $$`;
}

/** The stored `message_send`: its whole definition (put back after the reduced rounds), its arguments and its answer. */
export type StoredSend = { sql: string; args: string; result: string };
export const STORED_SEND_SQL = `select pg_get_functiondef(p.oid) as sql, pg_get_function_arguments(p.oid) as args,
  pg_get_function_result(p.oid) as result from pg_proc p where p.oid = 'message_send'::regproc`;

const kib = (v: number | undefined) => (v === undefined ? '–' : `${v.toFixed(1)} KiB`);
const roundsOf = (rounds: PairedRound[]) => rounds.map((r) => ratio(r.app.rps, r.ref.rps)).join(', ');

export function renderMessagesReport(r: MessagesReport): string {
  const out = [
    '## Messages',
    '',
    `Written by \`npm run bench -- --parts=messages\` (scripts/bench/messages.ts). Run ${r.date.slice(0, 16).replace('T', ' ')} UTC on ` +
      `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, load average ` +
      `${r.loadavg.map((l) => l.toFixed(2)).join(' / ')} at the end; the load generator shares the cores with the servers. ` +
      'The least possible server (scripts/bench/reference-server.ts, node:http + pg + ws) makes one statement per send (the ' +
      'repeat check by the sender’s key, the gapless seq, the insert, and a NOTIFY carrying the whole message), writes no ' +
      'other table, and for each NOTIFY builds one frame from its payload (nothing read again) and writes it straight to the ' +
      'conversation’s sockets.',
    '',
    '### A message reaching the other side',
    '',
    `Each round sends one message from every client over REST (${SEND_CONNECTIONS} at a time, or one at a time), timed from the ` +
      'start of the send to its arrival at the dietitian’s open subscription; both sides of every conversation are subscribed. ' +
      'The first round warms up. Each row is compared with the least possible server’s row of the same sends at a time.',
    '',
  ];
  const refOf = (row: DeliveryRow) => r.delivery.find((d) => d.label.startsWith('least possible') && d.connections === row.connections);
  out.push(
    table(
      ['conversations (sockets)', 'sends at a time', 'server', 'messages', 'delivered', 'p50', 'p95', 'p99', 'vs least possible p50 / p99'],
      r.delivery.map((d) => {
        const ref = refOf(d);
        return [
          `${d.conversations.toLocaleString('en-US')} (${(2 * d.conversations).toLocaleString('en-US')})`,
          String(d.connections),
          d.label,
          d.messages.toLocaleString('en-US'),
          d.missing ? `${((100 * d.delivered) / (d.delivered + d.missing)).toFixed(2)}% (${d.missing} missing)` : '100%',
          ms(d.p50),
          ms(d.p95),
          ms(d.p99),
          ref && d !== ref ? `${ratio(d.p50, ref.p50)} / ${ratio(d.p99, ref.p99)}` : '',
        ];
      }),
    ),
  );
  for (const d of r.delivery) {
    if (d.rssPerSubscriptionKiB === undefined) continue;
    out.push(
      '',
      `Memory per idle open conversation subscription (${d.label}, after GC, ${(2 * d.conversations).toLocaleString('en-US')} open): ` +
        `${kib(d.rssPerSubscriptionKiB)} RSS, ${kib(d.heapPerSubscriptionKiB)} heap + external (target ≤ 30 KiB).`,
    );
  }
  if (r.sends) {
    const { rest, trpc } = r.sends;
    out.push(
      '',
      `### Sends per second, ${SEND_CONNECTIONS} connections`,
      '',
      `Each of ${SEND_CONNECTIONS} clients sends in its own conversation; paired rounds of ${r.seconds} s, the one going first alternating; ` +
        'the round with the median ratio is shown. CPU per send in ms: the server process + the Postgres backends.',
      '',
      table(
        ['send', 'Poshan', 'least possible, same round', 'ratio', 'CPU per send: Poshan', 'least possible'],
        [
          ['REST `POST /api/conversations/{id}/messages`', rest],
          ['tRPC `messages.send`', trpc],
        ].map(([name, m]) => {
          const { median } = m as { median: PairedRound };
          return [
            name as string,
            load(median.app),
            load(median.ref),
            ratio(median.app.rps, median.ref.rps),
            cpu(median.app),
            cpu(median.ref),
          ];
        }),
      ),
      '',
      `Ratio per round: REST ${roundsOf(rest.rounds)}; tRPC ${roundsOf(trpc.rounds)}.`,
    );
    const { floor } = r.sends;
    if (floor) {
      const m = floor.median;
      out.push(
        '',
        'What the send’s own rules cost: the same REST sends with `message_send` reduced, in the bench’s database only, ' +
          'to the reference’s statement (the seq, the insert, the NOTIFY; no repeat check, rate limit, office hours, read ' +
          'mark, pushes or away reply), everything around it unchanged: ' +
          `${load(m.app)} against ${load(m.ref)}, ${ratio(m.app.rps, m.ref.rps)} (CPU per send ${cpu(m.app)} against ` +
          `${cpu(m.ref)}; ratio per round ${roundsOf(floor.rounds)}).`,
      );
    }
  }
  return out.join('\n');
}
