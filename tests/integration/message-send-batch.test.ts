import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES_CHANNEL } from '../../server/messages/events.js';
import { messagePush } from '../../server/messages/notify.js';
import type { SendInOneCall } from '../../server/messages/send-repo.js';
import { SendBatcher } from '../../server/messages/send-batch.js';
import { issueSession } from '../../server/auth/sessions-repo.js';
import { ROLE } from '../../server/auth/roles.js';
import type { Database } from '../../server/db/index.js';
import { isDatabaseUnavailable } from '../../server/db/unavailable.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Sends that arrive together share one call to the database (decision 124):
 * each still gets its own answer with all its rules (the repeat check, the
 * per-sender limit, who may write), seqs stay gapless, and one send that fails
 * inside a batch fails alone.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_MESSAGES: '30/1m' });
});
afterAll(async () => {
  await server?.stop();
});

type Account = { id: number; token: string; firstName: string };
let accounts = 0;
/** A client with a session, written straight to the tables (no password to hash: many are made at once). */
async function client(firstName: string): Promise<Account> {
  accounts += 1;
  const user = await server.deps.db
    .insertInto('users')
    .values({ email: `batch-${accounts}@send.test`, first_name: firstName, last_name: 'Test', role: ROLE.client, password_hash: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: user.id, token: (await issueSession(server.deps.db, user.id)).token, firstName };
}

async function conversationOf(user: Account): Promise<number> {
  const res = await server.request('GET', '/api/conversations', { token: user.token });
  expect(res.status).toBe(200);
  return res.body.data[0].id;
}
const seqsOf = async (conversationId: number) =>
  (await server.deps.db.selectFrom('messages').select('seq').where('conversation_id', '=', conversationId).orderBy('seq').execute()).map(
    (r) => r.seq,
  );
/** A client's send as the service builds it, with a limit of `max` in a minute. */
function clientSend(user: Account, conversationId: number, text: string, max = 30, clientMessageId: string = randomUUID()): SendInOneCall {
  return {
    conversationId,
    senderId: user.id,
    senderRole: 'client',
    clientMessageId,
    text,
    at: new Date(),
    limit: { bucket: `message-sender-test:${user.id}`, max, windowMs: 60_000 },
    hoursVersion: null,
    away: null,
    push: messagePush(conversationId, 'client', user.firstName),
    withFiles: false,
    channel: MESSAGES_CHANNEL,
  };
}
/** A batcher with one call at a time: a first send goes alone, and everything sent while it runs goes as one batch. */
const oneAtATime = () => new SendBatcher(server.deps.db, { inFlight: 1, batchMax: 64 });

describe('sends that arrive together', () => {
  it('share calls over REST, each answered as if alone: every message stored once, seqs gapless, repeats the same message', async () => {
    const clients = await Promise.all(Array.from({ length: 10 }, (_, i) => client(`Batch${i}`)));
    const ids = await Promise.all(clients.map(conversationOf));
    const before = { ...server.deps.messagesBus.sends.counts };
    const keys = clients.map(() => [randomUUID(), randomUUID(), randomUUID()]);
    const post = (i: number, k: number) =>
      server.request('POST', `/api/conversations/${ids[i]}/messages`, {
        token: clients[i]!.token,
        body: { text: `message ${k} from ${i}`, clientMessageId: keys[i]![k] },
      });
    // Three messages from each of ten clients at once, and a repeat of each client's first while they are in flight.
    const answers = await Promise.all(clients.flatMap((_, i) => [post(i, 0), post(i, 1), post(i, 2), post(i, 0)]));
    const after = server.deps.messagesBus.sends.counts;
    expect(after.sends - before.sends).toBeGreaterThanOrEqual(40);
    if (server.deps.dbHandle.kind === 'postgres') {
      // Batches happened: fewer calls than sends. (On the embedded database the calls did not overlap here: answers only.)
      expect(after.batches - before.batches).toBeGreaterThan(0);
      expect(after.calls - before.calls).toBeLessThan(after.sends - before.sends);
    }

    for (const [i, id] of ids.entries()) {
      const mine = answers.slice(4 * i, 4 * i + 4);
      // Each key stored once: the first three answers are new messages (or the repeat came first), the four name three ids.
      expect(new Set(mine.map((a) => a.body.data.id)).size).toBe(3);
      expect(mine.map((a) => a.status).sort()).toEqual([200, 201, 201, 201]);
      expect(await seqsOf(id)).toEqual([1, 2, 3]);
      const first = mine.filter((a) => a.body.data.clientMessageId === keys[i]![0]);
      expect(first).toHaveLength(2);
      expect(first[0]!.body.data.id).toBe(first[1]!.body.data.id);
    }
  });

  it('keeps the per-sender limit inside one batch: only what the limit allows is stored, the rest refused with when it frees', async () => {
    const asha = await client('Asha');
    const id = await conversationOf(asha);
    const batcher = oneAtATime();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => batcher.send(clientSend(asha, id, `m${i}`, 5))));
    expect(batcher.counts).toEqual({ calls: 2, batches: 1, sends: 8 });
    expect(answers.map((a) => a.outcome)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent', 'limited', 'limited', 'limited']);
    expect(answers.filter((a) => a.outcome === 'limited').every((a) => a.fullAt instanceof Date)).toBe(true);
    // In the order sent.
    expect(answers.slice(0, 5).map((a) => a.message.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(await seqsOf(id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('stores a clientMessageId sent twice in one batch once, and refuses a send to a conversation that is not the sender’s', async () => {
    const [ravi, kiran] = await Promise.all([client('Ravi'), client('Kiran')]);
    const [raviId, kiranId] = await Promise.all([conversationOf(ravi), conversationOf(kiran)]);
    const batcher = oneAtATime();
    const key = randomUUID();
    const [, first, again, intruder] = await Promise.all([
      batcher.send(clientSend(ravi, raviId, 'goes alone')),
      batcher.send(clientSend(ravi, raviId, 'hello', 30, key)),
      batcher.send(clientSend(ravi, raviId, 'hello', 30, key)),
      batcher.send(clientSend(kiran, raviId, 'not my conversation')),
    ]);
    expect(batcher.counts.batches).toBe(1);
    expect(first!.outcome).toBe('sent');
    expect(again!.outcome).toBe('repeat');
    expect(again!.message.id).toBe(first!.message.id);
    expect(intruder!.outcome).toBe('forbidden');
    expect(await seqsOf(raviId)).toEqual([1, 2]);
    expect(await seqsOf(kiranId)).toEqual([]);
  });

  it('answers each send alone when one send of the batch fails: the others are stored, the failing one is refused', async () => {
    const meena = await client('Meena');
    const id = await conversationOf(meena);
    const batcher = oneAtATime();
    const broken = { ...clientSend(meena, id, 'broken'), clientMessageId: 'not-a-uuid' };
    const answers = await Promise.allSettled([
      batcher.send(clientSend(meena, id, 'goes alone')),
      batcher.send(clientSend(meena, id, 'before')),
      batcher.send(broken),
      batcher.send(clientSend(meena, id, 'after')),
    ]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    // One call alone, the batch that failed, then its three sends alone.
    expect(batcher.counts).toEqual({ calls: 5, batches: 1, sends: 7 });
    expect(await seqsOf(id)).toEqual([1, 2, 3]);
    const texts = await server.deps.db.selectFrom('messages').select('text').where('conversation_id', '=', id).orderBy('seq').execute();
    expect(texts.map((t) => t.text)).toEqual(['goes alone', 'before', 'after']);
  });

  it('answers every send of a batch at once when the database cannot be reached, without trying each again', async () => {
    const asha = await client('Asha');
    const id = await conversationOf(asha);
    // A real connection to a port nobody listens on: refused at once.
    const pool = new pg.Pool({ host: '127.0.0.1', port: 1, user: 'postgres', connectionTimeoutMillis: 2000 });
    const unreachable = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    try {
      const batcher = new SendBatcher(unreachable, { inFlight: 1, batchMax: 64 });
      const answers = await Promise.allSettled(Array.from({ length: 4 }, (_, i) => batcher.send(clientSend(asha, id, `m${i}`))));
      expect(answers.every((a) => a.status === 'rejected' && isDatabaseUnavailable(a.reason))).toBe(true);
      // The first alone, then the other three as one batch: nothing tried twice.
      expect(batcher.counts).toEqual({ calls: 2, batches: 1, sends: 4 });
    } finally {
      await unreachable.destroy();
    }
  });
});
