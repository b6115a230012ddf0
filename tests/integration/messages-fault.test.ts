import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSession } from '../../server/auth/sessions-repo.js';
import { ROLE } from '../../server/auth/roles.js';
import { connectPostgres } from '../../server/db/connect.js';
import type { DbHandle } from '../../server/db/index.js';
import type { ConversationEvent, Message } from '../../server/messages/schema.js';
import { wsClient } from '../helpers/callers.js';
import { loadConfig } from '../../server/env.js';
import { createDeps, listen, openDatabase, type RunningServer } from '../../server/server.js';
import { type PrivatePostgres, privatePostgresUnavailable, startPrivatePostgres } from '../helpers/private-postgres.js';
import { freePort, tempDataDir } from '../helpers/processes.js';

/**
 * Messages' fault test: 1,000 messages sent over tRPC WebSockets
 * by clients whose sockets drop and reopen at random, while one instance of
 * two is restarted and Postgres is restarted once. Every acknowledged message
 * is stored exactly once, and every subscriber (each client and a dietitian,
 * on both instances) ends with every message of its conversation, in seq
 * order, with no gap. A sender retries a send that failed or went
 * unanswered with the same clientMessageId, as the app's composer does.
 * The faults are driven by progress (acknowledged sends), not by time. The
 * two instances run in this process (createDeps + listen, as server/main.ts
 * does), each on its own port and database pool: a restart closes one and
 * starts it again on the same port, in seconds even on a busy machine.
 */
const unavailable = privatePostgresUnavailable();
if (unavailable) console.warn(`[messages-fault.test] skipped: ${unavailable}. Install postgresql-15 to run it.`);

const CLIENTS = 10;
const PER_CLIENT = 100;
const TOTAL = CLIENTS * PER_CLIENT;
/** A send unanswered this long is sent again (same clientMessageId). */
const ATTEMPT_MS = 15_000;
/** Between a failed attempt and the next: the composer's retry pause, part of the scenario (not a wait for something). */
const RETRY_PAUSE_MS = 150;

let pg: PrivatePostgres;
let handle: DbHandle;
let a: Instance;
let b: Instance;
const data = tempDataDir('poshan-fault-');
const secret = randomBytes(32).toString('hex');

type Instance = { url: string; stop(): Promise<void> };

/** One instance of the app on `port` (0: any) over its own pool, as server/main.ts starts one. */
async function startInstance(port = 0): Promise<Instance> {
  // The senders write far more than a person may.
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: '0',
    DATABASE_URL: pg.url,
    DATA_DIR: data.dir,
    RATE_LIMIT_MESSAGES: '100000/1m',
  });
  const db = await openDatabase(config);
  const deps = await createDeps(config, db, secret);
  const running: RunningServer = await listen(deps, { port, host: '127.0.0.1', serveClient: false });
  return {
    url: running.url,
    async stop() {
      await running.close();
      await db.close();
    },
  };
}

type Socket = ReturnType<typeof wsClient>;

/**
 * One subscription to a conversation, kept as the app keeps it: every message merged by seq (a reload after a resync
 * may bring some a live event also brought), and the seqs that came live in order of arrival, which must only increase.
 */
function follow(socket: Socket, conversationId: number, reload: (after: number) => Promise<Message[]>) {
  const seqs = new Set<number>();
  const live: number[] = [];
  const errors: unknown[] = [];
  let resyncs = 0;
  let ready = false;
  /** What happened to this subscription, in order (printed when the test fails). */
  const story: string[] = [];
  const last = () => Math.max(0, ...seqs);
  // As the app's live hook does: a subscription that ends with an error (refused while Postgres is down) is opened again from where it was.
  const subscribe = () => {
    story.push(`subscribe after ${seqs.size ? last() : '-'}`);
    socket.client.messages.events.subscribe(
      { conversationId, lastEventId: seqs.size ? String(last()) : undefined },
      {
        onStarted: () => story.push('started'),
        onData(d) {
          const event: ConversationEvent = d.data;
          if (event.kind === 'ready') ready = true;
          else if (event.kind === 'message') {
            story.push(String(event.message.seq));
            live.push(event.message.seq);
            seqs.add(event.message.seq);
          } else if (event.kind === 'resync') {
            // As the app does: reload what came after the last message it has.
            resyncs += 1;
            story.push('resync');
            void reload(last()).then((missed) => {
              story.push(`reloaded ${missed.map((m) => m.seq).join(',')}`);
              for (const m of missed) seqs.add(m.seq);
            });
          }
        },
        onError(e) {
          errors.push(e);
          story.push(`error: ${(e as Error).message}`);
          setTimeout(subscribe, RETRY_PAUSE_MS);
        },
      },
    );
  };
  subscribe();
  return { conversationId, seqs, live, story, errors, isReady: () => ready, resyncs: () => resyncs };
}

describe.skipIf(unavailable !== null)('messages through dropped sockets, an instance restart and a Postgres restart', () => {
  beforeAll(async () => {
    pg = await startPrivatePostgres();
    // The first migrates; the second starts on the migrated database. A restarted instance comes back on its port.
    a = await startInstance(await freePort());
    b = await startInstance(await freePort());
    handle = connectPostgres(pg.url, 4);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await handle?.close();
    await pg?.destroy();
    data.remove();
  }, 180_000);

  async function account(role: 'client' | 'admin', n: number) {
    const user = await handle.db
      .insertInto('users')
      .values({ email: `${role}-${n}@fault.test`, first_name: 'Fault', last_name: `${role} ${n}`, role: ROLE[role], password_hash: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: user.id, token: (await issueSession(handle.db, user.id)).token };
  }

  it('stores every acknowledged message once and every subscriber ends with all of them, in order, without a gap', async () => {
    const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => account('client', i)));
    const dietitian = await account('admin', 0);
    const conversationIds: number[] = [];
    for (const c of clients) {
      const res = await fetch(`${a.url}/api/conversations`, { headers: { authorization: `Bearer ${c.token}` } });
      conversationIds.push(((await res.json()) as { data: { id: number }[] }).data[0]!.id);
    }
    /** What came after `after`, as the app reloads it after a resync (again after a pause while the servers cannot answer). */
    const reloadFrom = (token: string, conversationId: number) => async (after: number) => {
      const all: Message[] = [];
      for (let from = after; ; ) {
        const res = await fetch(`${a.url}/api/conversations/${conversationId}/messages?after=${from}&limit=100`, {
          headers: { authorization: `Bearer ${token}` },
        }).catch(() => null);
        if (res?.status !== 200) {
          await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS));
          continue;
        }
        const page = ((await res.json()) as { data: Message[] }).data;
        all.push(...page);
        if (page.length < 100) return all;
        from = page.at(-1)!.seq;
      }
    };

    // Each client: a socket on each instance, each subscribed to its conversation; the dietitian: one per instance, on every conversation.
    const sockets: Socket[] = [];
    const open = (url: string, token: string) => {
      const s = wsClient(url, token, { retryDelayMs: 100 });
      sockets.push(s);
      return s;
    };
    const clientSockets = clients.map((c) => [open(a.url, c.token), open(b.url, c.token)] as const);
    const followers = clients.flatMap((c, i) =>
      clientSockets[i]!.map((s) => follow(s, conversationIds[i]!, reloadFrom(c.token, conversationIds[i]!))),
    );
    for (const url of [a.url, b.url]) {
      const s = open(url, dietitian.token);
      followers.push(...conversationIds.map((id) => follow(s, id, reloadFrom(dietitian.token, id))));
    }
    await expect.poll(() => followers.every((f) => f.isReady()), { timeout: 60_000, interval: 100 }).toBe(true);

    // Faults, driven by progress: a random socket dropped now and then; instance B restarted; Postgres restarted once.
    const acknowledged = new Map<string, number>();
    let attempts = 0;
    let drops = 0;
    let faults = Promise.resolve();
    const ready = async (url: string) => (await fetch(`${url}/readyz`).catch(() => null))?.status ?? 0;
    const restartB = async () => {
      const port = Number(new URL(b.url).port);
      await b.stop();
      progress('instance B stopped');
      b = await startInstance(port);
      progress('instance B started again');
    };
    const restartPostgres = async () => {
      await pg.stop();
      progress('Postgres stopped');
      await expect.poll(async () => (await ready(a.url)) === 503 && (await ready(b.url)) === 503, { timeout: 30_000 }).toBe(true);
      await pg.start();
      progress('Postgres started again');
    };
    const started = Date.now();
    const progress = (what: string) =>
      console.log(`[messages-fault] ${((Date.now() - started) / 1000).toFixed(1)} s: ${what} (${acknowledged.size} acknowledged)`);
    const onAck = () => {
      const n = acknowledged.size;
      if (n % 100 === 0) progress('sending');
      if (Math.random() < 0.08) {
        drops += 1;
        sockets[Math.floor(Math.random() * sockets.length)]!.dropConnection();
      }
      if (n === Math.round(TOTAL * 0.3)) faults = faults.then(restartB);
      if (n === Math.round(TOTAL * 0.6)) faults = faults.then(restartPostgres);
    };

    const sendOnce = async (client: number, k: number) => {
      const clientMessageId = randomUUID();
      for (;;) {
        attempts += 1;
        // Alternate instances per message; the same id on each retry.
        const socket = clientSockets[client]![(k + attempts) % 2]!;
        try {
          const sent = await socket.client.messages.send.mutate(
            { conversationId: conversationIds[client]!, text: `Message ${k + 1} of client ${client} नमस्ते 🙏`, clientMessageId },
            { signal: AbortSignal.timeout(ATTEMPT_MS) },
          );
          acknowledged.set(clientMessageId, sent.seq);
          onAck();
          return;
        } catch {
          await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS));
        }
      }
    };
    await Promise.all(
      clients.map(async (_, i) => {
        for (let k = 0; k < PER_CLIENT; k++) await sendOnce(i, k);
      }),
    );
    await faults;
    expect(acknowledged.size).toBe(TOTAL);

    // Stored exactly once: one row per acknowledged id, at the seq it was acknowledged with; each conversation gapless.
    const rows = await handle.db
      .selectFrom('messages')
      .select(['conversation_id', 'seq', 'client_message_id'])
      .where('conversation_id', 'in', conversationIds)
      .orderBy('conversation_id')
      .orderBy('seq')
      .execute();
    expect(rows.length).toBe(TOTAL);
    const stored = new Map(rows.map((r) => [r.client_message_id!, r.seq]));
    expect(stored.size).toBe(TOTAL);
    for (const [id, seq] of acknowledged) expect(stored.get(id), id).toBe(seq);
    for (const id of conversationIds) {
      expect(rows.filter((r) => r.conversation_id === id).map((r) => r.seq)).toEqual(Array.from({ length: PER_CLIENT }, (_, i) => i + 1));
    }

    // Every subscriber ends with every message of its conversation, with no gap; what came live came in seq order, once.
    const everything = Array.from({ length: PER_CLIENT }, (_, i) => i + 1);
    await expect
      .poll(() => followers.filter((f) => f.seqs.size < PER_CLIENT).length, { timeout: 90_000, interval: 200 })
      .toBe(0)
      .catch((err) => {
        for (const f of followers.filter((f) => f.seqs.size < PER_CLIENT))
          console.log(
            `[messages-fault] conversation ${f.conversationId} lacks ${everything.filter((seq) => !f.seqs.has(seq))}: ${f.story.join(' ')}`,
          );
        throw err;
      });
    for (const f of followers) {
      expect(
        [...f.seqs].sort((x, y) => x - y),
        `conversation ${f.conversationId}`,
      ).toEqual(everything);
      expect(
        f.live.filter((seq, i) => i > 0 && seq <= f.live[i - 1]!),
        `conversation ${f.conversationId}: live repeats or out of order`,
      ).toEqual([]);
    }
    const resyncs = followers.reduce((n, f) => n + f.resyncs(), 0);
    const reopened = followers.reduce((n, f) => n + f.errors.length, 0);
    console.log(
      `[messages-fault] ${TOTAL} messages acknowledged after ${attempts} attempts; ${drops} sockets dropped; ` +
        `instance B and Postgres restarted once each; ${followers.length} subscribers, ${resyncs} resyncs, ${reopened} reopened after an error`,
    );
    await Promise.all(sockets.map((s) => s.close()));
  }, 900_000);
});
