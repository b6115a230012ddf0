import { randomUUID } from 'node:crypto';
import type { TRPCClientError } from '@trpc/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationEvent, InboxEvent } from '../../server/messages/schema.js';
import type { AppRouter } from '../../server/trpc/root.js';
import { wsClient } from '../helpers/callers.js';
import { startSecondInstance, startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * Conversations live over tRPC's WebSocket, through the one live
 * channel: messages arrive as `list` returns them (from either instance),
 * receipts and typing reach the other side only, a resumed subscription
 * replays what it missed in order, another client is refused, and typing is
 * throttled and never stored.
 */
let server: TestServer;
let second: { url: string; stop(): Promise<void> };
let meera: TestUser;
let asha: TestUser;
let ravi: TestUser;
const sockets: ReturnType<typeof wsClient>[] = [];

beforeAll(async () => {
  server = await startTestServer();
  second = await startSecondInstance(server);
  [meera, asha, ravi] = await Promise.all([
    server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' }),
    server.user({ firstName: 'Asha', lastName: 'Verma' }),
    server.user({ firstName: 'Ravi', lastName: 'Kumar' }),
  ]);
});
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await second?.stop();
  await server?.stop();
});

function connect(token: string, url = server.url) {
  const socket = wsClient(url, token);
  sockets.push(socket);
  return socket;
}

type Got<E> = { id: string | null; event: E };
/** Everything one subscription receives, and its error. */
function record<E>(subscribe: (handlers: { onData(d: unknown): void; onError(e: unknown): void }) => { unsubscribe(): void }) {
  const received: Got<E>[] = [];
  const errors: TRPCClientError<AppRouter>[] = [];
  const sub = subscribe({
    onData(d) {
      const t = d as { id?: string; data?: E };
      received.push(
        t && typeof t === 'object' && 'data' in t && 'id' in t ? { id: t.id ?? null, event: t.data as E } : { id: null, event: d as E },
      );
    },
    onError(e) {
      errors.push(e as TRPCClientError<AppRouter>);
    },
  });
  const events = () => received.map((r) => r.event);
  return {
    received,
    errors,
    events,
    unsubscribe: () => sub.unsubscribe(),
    ready: () => expect.poll(() => events().some((e) => (e as { kind: string }).kind === 'ready'), { timeout: 20_000 }).toBe(true),
  };
}

const conversation = (socket: ReturnType<typeof wsClient>, conversationId: number, lastEventId?: string) =>
  record<ConversationEvent>((h) => socket.client.messages.events.subscribe({ conversationId, lastEventId }, h));

async function conversationOf(user: TestUser): Promise<number> {
  const res = await server.request('GET', '/api/conversations', { token: user.token });
  expect(res.status).toBe(200);
  return res.body.data[0].id;
}
const send = async (token: string, conversationId: number, text: string, url = server.url) => {
  const res = await fetch(`${url}/api/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text, clientMessageId: randomUUID() }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { seq: number; id: number } }).data;
};
const messagesOf = (events: ConversationEvent[]) => events.flatMap((e) => (e.kind === 'message' ? [e.message] : []));

describe('messages.events', () => {
  it('delivers a message to both sides as list returns it, from either instance, and the console inbox hears of it', async () => {
    const id = await conversationOf(asha);
    const mine = conversation(connect(asha.token), id);
    const team = conversation(connect(meera.token), id);
    const adminSocket = connect(meera.token);
    const inbox = record<InboxEvent>((h) => adminSocket.client.admin.messages.inboxEvents.subscribe(undefined, h));
    await Promise.all([mine.ready(), team.ready(), inbox.ready()]);

    const sent = await send(asha.token, id, 'Had poha for breakfast', second.url);
    await expect.poll(() => messagesOf(team.events()).map((m) => m.seq), { timeout: 10_000 }).toEqual([sent.seq]);
    await expect.poll(() => messagesOf(mine.events()).map((m) => m.seq), { timeout: 10_000 }).toEqual([sent.seq]);
    const listed = await fetch(`${server.url}/api/conversations/${id}/messages?after=${sent.seq - 1}`, {
      headers: { authorization: `Bearer ${meera.token}` },
    }).then((r) => r.json() as Promise<{ data: { id: number; text: string; sender: unknown }[] }>);
    const live = messagesOf(team.events())[0]!;
    expect(live).toMatchObject({ id: listed.data[0]!.id, text: 'Had poha for breakfast', sender: listed.data[0]!.sender });
    expect(team.received.find((r) => r.event.kind === 'message')!.id).toBe(String(sent.seq));
    await expect
      .poll(() => inbox.events().some((e) => e.kind === 'changed' && e.conversationId === id && e.lastSeq === sent.seq), {
        timeout: 10_000,
      })
      .toBe(true);

    // The team reads it: the client sees "Seen" move; the dietitian gets no receipt of their own.
    const read = await server.request('POST', `/api/conversations/${id}/read`, { token: meera.token, body: { seq: sent.seq } });
    expect(read.status).toBe(200);
    await expect.poll(() => mine.events().some((e) => e.kind === 'read' && e.seq === sent.seq), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => inbox.events().filter((e) => e.kind === 'changed').length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(team.events().some((e) => e.kind === 'read')).toBe(false);

    // A reply: its live event is built from the row its NOTIFY carries (no query for it); it must be exactly
    // what the list answers.
    const reply = await send(meera.token, id, 'Good start! Add a fruit. 🍎', server.url);
    await expect.poll(() => messagesOf(mine.events()).map((m) => m.seq), { timeout: 10_000 }).toEqual([sent.seq, reply.seq]);
    const page = await fetch(`${server.url}/api/conversations/${id}/messages?after=${reply.seq - 1}`, {
      headers: { authorization: `Bearer ${asha.token}` },
    }).then((r) => r.json() as Promise<{ data: unknown[] }>);
    expect(JSON.parse(JSON.stringify(messagesOf(mine.events())[1]))).toEqual(page.data[0]);
  });

  it('delivers a message with a file as the list answers it, its file included, from either instance', async () => {
    const pia = await server.user({ firstName: 'Pia', lastName: 'Shah' });
    const id = await conversationOf(pia);
    const team = conversation(connect(meera.token), id);
    const mine = conversation(connect(pia.token, second.url), id);
    await Promise.all([team.ready(), mine.ready()]);
    const form = new FormData();
    form.append('file', new Blob([new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n')]), 'lipid-profile.pdf');
    const uploaded = await fetch(`${server.url}/api/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${pia.token}` },
      body: form,
    }).then((r) => r.json() as Promise<{ data: { id: string } }>);
    const res = await fetch(`${second.url}/api/conversations/${id}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${pia.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'My lab report', clientMessageId: randomUUID(), attachmentIds: [uploaded.data.id] }),
    });
    expect(res.status).toBe(201);
    const sent = ((await res.json()) as { data: { seq: number } }).data;
    await expect.poll(() => messagesOf(team.events()).map((m) => m.seq), { timeout: 10_000 }).toEqual([sent.seq]);
    await expect.poll(() => messagesOf(mine.events()).map((m) => m.seq), { timeout: 10_000 }).toEqual([sent.seq]);
    const listed = await fetch(`${server.url}/api/conversations/${id}/messages?after=${sent.seq - 1}`, {
      headers: { authorization: `Bearer ${meera.token}` },
    }).then((r) => r.json() as Promise<{ data: { attachments: { id: string; name: string }[] }[] }>);
    for (const live of [messagesOf(team.events())[0]!, messagesOf(mine.events())[0]!]) {
      expect(live.attachments.map((a) => [a.id, a.name])).toEqual([[uploaded.data.id, 'lipid-profile.pdf']]);
      expect(live.attachments.map((a) => a.id)).toEqual(listed.data[0]!.attachments.map((a) => a.id));
    }
  });

  it('replays the messages missed since lastEventId in order, then the current receipt, then goes live', async () => {
    const id = await conversationOf(ravi);
    const first = await send(ravi.token, id, 'one');
    const socket = connect(ravi.token);
    const before = conversation(socket, id);
    await before.ready();
    before.unsubscribe();
    const missed = [await send(meera.token, id, 'two'), await send(meera.token, id, 'three'), await send(ravi.token, id, 'four')];

    const resumed = conversation(socket, id, String(first.seq));
    await resumed.ready();
    const replayed = resumed.received.filter((r) => r.event.kind === 'message');
    expect(replayed.map((r) => r.id)).toEqual(missed.map((m) => String(m.seq)));
    expect(messagesOf(resumed.events()).map((m) => m.text)).toEqual(['two', 'three', 'four']);
    expect(resumed.events().map((e) => e.kind)).toEqual(['message', 'message', 'message', 'read', 'ready']);

    const next = await send(meera.token, id, 'five');
    await expect
      .poll(() => messagesOf(resumed.events()).map((m) => m.seq), { timeout: 10_000 })
      .toEqual([...missed.map((m) => m.seq), next.seq]);

    // A cursor this conversation never had reloads the client.
    const unknown = conversation(socket, id, '999999');
    await unknown.ready();
    expect(unknown.events().map((e) => e.kind)).toEqual(['resync', 'ready']);
  });

  it('refuses another client (403) and an unknown conversation (404)', async () => {
    const id = await conversationOf(asha);
    const socket = connect(ravi.token);
    const theirs = conversation(socket, id);
    const missing = conversation(socket, 2_000_000);
    await expect.poll(() => theirs.errors.length + missing.errors.length, { timeout: 10_000 }).toBe(2);
    expect(theirs.errors[0]!.data?.code).toBe('FORBIDDEN');
    expect(missing.errors[0]!.data?.code).toBe('NOT_FOUND');
    expect(theirs.received).toEqual([]);
    const typing = await socket.client.messages.typing
      .mutate({ conversationId: id })
      .catch((e: TRPCClientError<AppRouter>) => e.data?.code);
    expect(typing).toBe('FORBIDDEN');
  });
});

describe('typing', () => {
  it('reaches the other side only, at most once every 3 s per sender, and is never stored', async () => {
    const id = await conversationOf(asha);
    const countBefore = await server.deps.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const mine = conversation(connect(asha.token), id);
    const team = conversation(connect(meera.token), id);
    await Promise.all([mine.ready(), team.ready()]);

    const socket = connect(asha.token);
    expect(await socket.client.messages.typing.mutate({ conversationId: id })).toEqual({ sent: true });
    expect(await socket.client.messages.typing.mutate({ conversationId: id })).toEqual({ sent: false });
    await expect
      .poll(() => team.events().filter((e) => e.kind === 'typing'), { timeout: 10_000 })
      .toEqual([{ kind: 'typing', userId: asha.id, name: 'Asha' }]);
    // The dietitian types back: the client hears it; nobody hears their own.
    expect(await connect(meera.token).client.messages.typing.mutate({ conversationId: id })).toEqual({ sent: true });
    await expect
      .poll(() => mine.events().filter((e) => e.kind === 'typing'), { timeout: 10_000 })
      .toEqual([{ kind: 'typing', userId: meera.id, name: 'Meera' }]);
    expect(team.events().filter((e) => e.kind === 'typing')).toHaveLength(1);

    const countAfter = await server.deps.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(countAfter.n)).toBe(Number(countBefore.n));
    // Typing does not move the resume position: the tracked id stays the last message's seq.
    const typingIds = team.received.filter((r) => r.event.kind === 'typing').map((r) => r.id);
    const readyId = team.received.find((r) => r.event.kind === 'ready')!.id;
    expect(typingIds).toEqual([readyId]);
  });
});
