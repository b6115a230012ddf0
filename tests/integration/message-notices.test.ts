import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '../../server/db/connect.js';
import type { DbHandle } from '../../server/db/index.js';
import type { AppDeps } from '../../server/deps.js';
import { loadConfig } from '../../server/env.js';
import { MESSAGE_NOTICE_JOB, sendMessageNotices } from '../../server/messages/notify.js';
import { createDeps, listen } from '../../server/server.js';
import { callerFor } from '../helpers/callers.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { until } from '../helpers/until.js';

/**
 * A message still unread after 10 minutes mails its recipient once:
 * the care team (the primary dietitian, else every dietitian) or the client;
 * at most once per conversation an hour, never if read meanwhile, exactly once
 * with two instances sweeping at the same moment through their job queues.
 */
const T0 = new Date('2026-11-26T04:00:00Z');
let now = T0;
const clock = () => now;
const at = (minutes: number) => {
  now = new Date(T0.getTime() + minutes * 60_000);
};

let server: TestServer;
let second: { deps: AppDeps; stop(): Promise<void> };
let meera: TestUser;
let kiran: TestUser;
let client: TestUser;
let conversationId: number;

beforeAll(async () => {
  const env = { PUBLIC_URL: 'https://poshan.example' };
  server = await startTestServer(env, { clock });
  const shared = server.deps.dbHandle as DbHandle & { url?: string };
  const own = shared.url ? connectPostgres(shared.url, 5) : null;
  const deps = await createDeps(
    loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', SEED_DEMO: '0', ...env }),
    own ?? shared,
    server.deps.secret,
    {
      clock,
    },
  );
  const running = await listen(deps, { port: 0, host: '127.0.0.1', serveClient: false });
  second = {
    deps,
    async stop() {
      await running.close();
      await own?.close();
    },
  };
  [meera, kiran, client] = await Promise.all([
    server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' }),
    server.user({ role: 'admin', firstName: 'Kiran', lastName: 'Rao' }),
    server.user({ firstName: 'Sana', lastName: 'Shaikh' }),
  ]);
  const list = await (await callerFor(server, client.token)).messages.conversations({ page: 0, pageSize: 25 });
  conversationId = list.items[0]!.id;
});
afterAll(async () => {
  await second?.stop();
  await server?.stop();
});

const say = async (user: TestUser, text: string) =>
  (await callerFor(server, user.token)).messages.send({ conversationId, text, clientMessageId: randomUUID() });
const read = async (user: TestUser, seq: number) => (await callerFor(server, user.token)).messages.read({ conversationId, seq });

/** Notice mails in the outbox, per recipient. */
async function notices() {
  const rows = await server.deps.db
    .selectFrom('outbox')
    .select(['to_address', 'subject', 'body_text'])
    .where('subject', 'like', 'New message from %')
    .orderBy('id')
    .execute();
  return rows;
}

/** Both instances sweep at once, several times over, directly and through their job queues. */
async function sweepEverywhere(minutes: number) {
  at(minutes);
  const direct = await Promise.all(Array.from({ length: 4 }, (_, i) => sendMessageNotices((i % 2 ? second : server).deps, now)));
  await Promise.all([server.deps.jobs.send(MESSAGE_NOTICE_JOB), second.deps.jobs.send(MESSAGE_NOTICE_JOB)]);
  await until(async () => (await server.deps.jobs.depth()) === 0 && (await second.deps.jobs.depth()) === 0, 'the job queues to drain', {
    timeoutMs: 30_000,
  });
  await server.deps.mailer.drain();
  await second.deps.mailer.drain();
  return direct.flat();
}

describe('unread message notices', () => {
  it('mails every dietitian once, 10 minutes after a client’s message nobody read, naming the client and never the text', async () => {
    at(0);
    await say(client, 'My sugar reading was 180 this morning');
    expect(await sweepEverywhere(9)).toEqual([]);
    expect(await notices()).toEqual([]);
    const sent = await sweepEverywhere(11);
    expect(sent).toHaveLength(1);
    const mails = await notices();
    expect(mails.map((m) => m.to_address).sort()).toEqual([meera.email, kiran.email].sort());
    for (const m of mails) {
      expect(m.subject).toBe('New message from Sana Shaikh');
      expect(m.body_text).toContain(`https://poshan.example/admin/messages?conversation=${conversationId}`);
      expect(m.body_text).not.toContain('sugar');
      expect(m.body_text).not.toContain('180');
    }
    // Later sweeps, on either instance, send nothing more for it.
    expect(await sweepEverywhere(13)).toEqual([]);
    expect(await notices()).toHaveLength(2);
  });

  it('sends at most one notice per conversation an hour, then one for what is still unread', async () => {
    at(20);
    await say(client, 'Also, can I have tea?');
    expect(await sweepEverywhere(35)).toEqual([]);
    expect(await sweepEverywhere(70)).toEqual([]); // 59 minutes after the first notice
    expect(await sweepEverywhere(72)).toHaveLength(1);
    expect(await notices()).toHaveLength(4);
  });

  it('tells only the primary dietitian once one is set', async () => {
    await (await callerFor(server, meera.token)).admin.messages.setPrimary({ conversationId, dietitianId: kiran.id });
    at(140);
    await say(client, 'Hello?');
    expect(await sweepEverywhere(151)).toHaveLength(1);
    expect((await notices()).slice(4).map((m) => m.to_address)).toEqual([kiran.email]);
  });

  it('sends nothing when the message was read meanwhile', async () => {
    at(300);
    const m = await say(client, 'Thank you!');
    at(305);
    await read(meera, m.seq);
    expect(await sweepEverywhere(320)).toEqual([]);
    expect(await notices()).toHaveLength(5);
  });

  it('mails the client about a dietitian’s unread reply, and nothing once it is read', async () => {
    at(400);
    const reply = await say(kiran, 'Yes, tea without sugar is fine. Your reading is high: let us talk.');
    expect(await sweepEverywhere(411)).toHaveLength(1);
    const mail = (await notices()).at(-1)!;
    expect(mail).toMatchObject({ to_address: client.email, subject: 'New message from Kiran Rao' });
    expect(mail.body_text).toContain('https://poshan.example/dashboard/messages');
    expect(mail.body_text).not.toContain('sugar');
    await read(client, reply.seq);
    expect(await sweepEverywhere(500)).toEqual([]);
    expect(await notices()).toHaveLength(6);
  });
});
