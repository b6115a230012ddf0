import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messagesAfter } from '../../server/messages/repo.js';
import { callerFor, failure, httpClient } from '../helpers/callers.js';
import { startSecondInstance, startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { until } from '../helpers/until.js';

/**
 * Messages between a client and the care team over REST and tRPC:
 * conversations made on first use, gapless seqs under concurrent sends on two
 * instances, repeat-safe clientMessageIds, read state and unread counts, who
 * may read what (403/404), the per-sender limit (429) and the NOTIFY seam.
 */
const LIMIT = 25;
const env = { RATE_LIMIT_MESSAGES: `${LIMIT}/1m` };
let server: TestServer;
let second: { url: string; stop(): Promise<void> };
let admin: TestUser;
let admin2: TestUser;
let asha: TestUser;
let ravi: TestUser;

beforeAll(async () => {
  server = await startTestServer(env);
  second = await startSecondInstance(server, env);
  [admin, admin2, asha, ravi] = await Promise.all([
    server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' }),
    server.user({ role: 'admin', firstName: 'Kiran', lastName: 'Rao' }),
    server.user({ firstName: 'Asha', lastName: 'Verma' }),
    server.user({ firstName: 'Ravi', lastName: 'Kumar' }),
  ]);
});
afterAll(async () => {
  await second?.stop();
  await server?.stop();
});

const get = (token: string, path: string) => server.request('GET', `/api${path}`, { token });
const post = (token: string, path: string, body: unknown) => server.request('POST', `/api${path}`, { token, body });
/** The client's own conversation id, as the client's list makes it. */
async function conversationOf(user: TestUser): Promise<number> {
  const res = await get(user.token, '/conversations');
  expect(res.status).toBe(200);
  return res.body.data[0].id;
}
const send = (token: string, conversationId: number, text: string, clientMessageId = randomUUID()) =>
  post(token, `/conversations/${conversationId}/messages`, { text, clientMessageId });
async function upload(token: string, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${server.url}/api/attachments`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

const seqsOf = async (conversationId: number) =>
  (await server.deps.db.selectFrom('messages').select('seq').where('conversation_id', '=', conversationId).orderBy('seq').execute()).map(
    (r) => r.seq,
  );

describe('conversations', () => {
  it('gives a client a list holding their one conversation, made on first use and only once', async () => {
    const answers = await Promise.all([get(ravi.token, '/conversations'), get(ravi.token, '/conversations')]);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body.data).toHaveLength(1);
      expect(a.body).toMatchObject({ total: 1, totalUnread: 0 });
    }
    expect(answers[0]!.body.data[0]).toMatchObject({
      client: { id: ravi.id, name: 'Ravi Kumar', active: true },
      unread: 0,
      lastMessage: null,
      lastSeq: 0,
      waitingForUs: false,
    });
    expect(answers[1]!.body.data[0].id).toBe(answers[0]!.body.data[0].id);
  });

  it('gives a dietitian every conversation, newest first, with the client’s name, unread count and last message', async () => {
    const ashaConversation = await conversationOf(asha);
    expect((await send(asha.token, ashaConversation, 'नमस्ते, I have a question about dinner')).status).toBe(201);
    const res = await get(admin.token, '/conversations');
    expect(res.status).toBe(200);
    const first = res.body.data[0];
    expect(first).toMatchObject({
      id: ashaConversation,
      client: { id: asha.id, name: 'Asha Verma' },
      unread: 1,
      waitingForUs: true,
      lastMessage: { seq: 1, text: 'नमस्ते, I have a question about dinner', senderRole: 'client' },
    });
    expect(res.body.totalUnread).toBeGreaterThanOrEqual(1);
  });
});

describe('sending', () => {
  it('answers 201 with the message, numbered in its conversation, as the issue lists its fields', async () => {
    const id = await conversationOf(ravi);
    const key = randomUUID();
    const res = await send(ravi.token, id, 'Can I eat mangoes? 🥭\nAsking for my plan.', key);
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Message sent');
    expect(res.body.data).toMatchObject({
      conversationId: id,
      clientMessageId: key,
      sender: { id: ravi.id, name: 'Ravi Kumar', role: 'client' },
      text: 'Can I eat mangoes? 🥭\nAsking for my plan.',
      attachments: [],
      repeated: false,
    });
    expect(res.body.data.seq).toBe((await seqsOf(id)).at(-1));
    const reply = await send(admin.token, id, 'Yes, one a day is fine.');
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({ seq: res.body.data.seq + 1, sender: { id: admin.id, name: 'Meera Iyer', role: 'dietitian' } });
  });

  it('stores 20 identical concurrent sends once: one 201, the rest 200 with the same message', async () => {
    const id = await conversationOf(ravi);
    const key = randomUUID();
    const before = await seqsOf(id);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 ? send(ravi.token, id, 'Sent from a train', key) : fetchOn(second.url, ravi.token, id, 'Sent from a train', key),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(19).fill(200), 201]);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(answers.find((a) => a.status === 200)?.body).toMatchObject({
      message: 'This message was sent already.',
      data: { text: 'Sent from a train', repeated: true, clientMessageId: key },
    });
    expect(await seqsOf(id)).toEqual([...before, before.length + 1]);
  });

  it('refuses the key sent again with other text (422 naming it, over REST and tRPC); the same text answers the first', async () => {
    const id = await conversationOf(ravi);
    const caller = await callerFor(server, ravi.token);
    const key = randomUUID();
    const before = await seqsOf(id);
    const first = await caller.messages.send({ conversationId: id, text: 'First words', clientMessageId: key });
    await expect(
      caller.messages.send({ conversationId: id, text: 'Other words', clientMessageId: key.toUpperCase() }),
    ).rejects.toMatchObject({
      code: 'UNPROCESSABLE_CONTENT',
      message: 'This clientMessageId was already used with different details (text). Send it with a new key.',
    });
    const res = await send(ravi.token, id, 'Other words', key);
    expect(res).toMatchObject({
      status: 422,
      body: { status: 422, message: expect.stringContaining('(text)'), data: { fieldErrors: { text: [expect.any(String)] } } },
    });
    const again = await send(ravi.token, id, 'First words', key.toUpperCase() as typeof key);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: first.id, seq: first.seq, text: 'First words', repeated: true });
    expect(await seqsOf(id)).toEqual([...before, before.length + 1]);
  });

  it('numbers concurrent sends from both sides on two instances 1, 2, 3... with no gap and no repeat', async () => {
    const fresh = await server.user({ firstName: 'Gita' });
    const id = await conversationOf(fresh);
    const texts = Array.from({ length: 12 }, (_, i) => i);
    const answers = await Promise.all([
      ...texts.map((i) => (i % 2 ? send(fresh.token, id, `client ${i}`) : fetchOn(second.url, fresh.token, id, `client ${i}`))),
      ...texts.map((i) => (i % 2 ? send(admin2.token, id, `team ${i}`) : fetchOn(second.url, admin2.token, id, `team ${i}`))),
    ]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    const seqs = answers.map((a) => a.body.data.seq as number).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(await seqsOf(id)).toEqual(seqs);
    // In commit order: a higher seq was never sent before a lower one.
    const stored = await server.deps.db
      .selectFrom('messages')
      .select(['seq', 'id'])
      .where('conversation_id', '=', id)
      .orderBy('seq')
      .execute();
    expect(stored.map((r) => r.id)).toEqual([...stored.map((r) => r.id)].sort((a, b) => a - b));
  });

  it('refuses bad text with a clear 400: empty, too long, invisible characters; accepts Hindi and emoji', async () => {
    const id = await conversationOf(ravi);
    const empty = await send(ravi.token, id, '   ');
    expect(empty.status).toBe(400);
    expect(empty.body.data.fieldErrors.text).toEqual(['Write a message']);
    const long = await send(ravi.token, id, 'a'.repeat(4001));
    expect(long.status).toBe(400);
    expect(long.body.data.fieldErrors.text).toEqual(['A message must be at most 4,000 characters']);
    const hidden = await send(ravi.token, id, 'hello\u202Eworld');
    expect(hidden.status).toBe(400);
    expect(hidden.body.data.fieldErrors.text[0]).toMatch(/line breaks and tabs/);
    const key = await post(ravi.token, `/conversations/${id}/messages`, { text: 'hi', clientMessageId: 'retry-1' });
    expect(key.status).toBe(400);
    expect(key.body.data.fieldErrors.clientMessageId).toBeDefined();
    expect((await send(ravi.token, id, `${'क'.repeat(3990)} 🙏🏽`)).status).toBe(201);
  });

  it('sends a photo and a report with a message (or alone), in order, and a repeat carries the same files', async () => {
    const id = await conversationOf(ravi);
    const photo = await upload(
      ravi.token,
      await sharp({ create: { width: 32, height: 24, channels: 3, background: '#c44' } })
        .jpeg()
        .toBuffer(),
      'plate.jpg',
    );
    const report = await upload(ravi.token, Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n'), 'lipid-profile.pdf');
    expect([photo.status, report.status]).toEqual([201, 201]);
    const key = randomUUID();
    const body = { text: 'My lunch and the lab report', clientMessageId: key, attachmentIds: [report.body.data.id, photo.body.data.id] };
    const sent = await post(ravi.token, `/conversations/${id}/messages`, body);
    expect(sent.status).toBe(201);
    const files = sent.body.data.attachments;
    expect(files.map((f: { name: string; contentType: string }) => [f.name, f.contentType])).toEqual([
      ['lipid-profile.pdf', 'application/pdf'],
      ['plate.jpg', 'image/jpeg'],
    ]);
    expect(files[1].thumbnailUrl).toEqual(expect.any(String));
    // The dietitian reads it with the files; the client's own link opens the photo.
    const read = await get(admin.token, `/conversations/${id}/messages?after=${sent.body.data.seq - 1}`);
    expect(read.body.data[0].attachments.map((f: { id: string }) => f.id)).toEqual([report.body.data.id, photo.body.data.id]);
    const image = await fetch(new URL(read.body.data[0].attachments[1].url, server.url));
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    // A repeat answers the same message with the same files, and claims nothing twice.
    const again = await post(ravi.token, `/conversations/${id}/messages`, body);
    expect([again.status, again.body.data.id, again.body.data.attachments.length]).toEqual([200, sent.body.data.id, 2]);
    // The same key with one file less is another message: refused, naming the files.
    const fewer = await post(ravi.token, `/conversations/${id}/messages`, { ...body, attachmentIds: [report.body.data.id] });
    expect([fewer.status, fewer.body.message]).toEqual([
      422,
      'This clientMessageId was already used with different details (attachmentIds). Send it with a new key.',
    ]);
    // A photo alone is a message; no text and no file is not.
    const alone = await upload(
      ravi.token,
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#4c4' } })
        .png()
        .toBuffer(),
      'dinner.png',
    );
    const onlyPhoto = await post(ravi.token, `/conversations/${id}/messages`, {
      clientMessageId: randomUUID(),
      attachmentIds: [alone.body.data.id],
    });
    expect([onlyPhoto.status, onlyPhoto.body.data.text]).toEqual([201, '']);
    const empty = await post(ravi.token, `/conversations/${id}/messages`, { clientMessageId: randomUUID() });
    expect([empty.status, empty.body.data.fieldErrors.text]).toEqual([400, ['Write a message']]);
  });

  it('refuses a file that is not the sender’s own upload or is attached already, and stores no message', async () => {
    const id = await conversationOf(ravi);
    const before = await seqsOf(id);
    const ashas = await upload(asha.token, Buffer.from('%PDF-1.4\n%%EOF\n'), 'asha.pdf');
    const notMine = await post(ravi.token, `/conversations/${id}/messages`, {
      text: 'x',
      clientMessageId: randomUUID(),
      attachmentIds: [ashas.body.data.id],
    });
    expect(notMine.status).toBe(400);
    expect(notMine.body.data.fieldErrors.attachmentIds[0]).toMatch(/not found among your uploads/);
    const bogus = await post(ravi.token, `/conversations/${id}/messages`, {
      text: 'x',
      clientMessageId: randomUUID(),
      attachmentIds: ['1'],
    });
    expect(bogus.status).toBe(400);
    const mine = await upload(ravi.token, Buffer.from('%PDF-1.4\n%%EOF\n'), 'once.pdf');
    expect(
      (
        await post(ravi.token, `/conversations/${id}/messages`, {
          text: 'first',
          clientMessageId: randomUUID(),
          attachmentIds: [mine.body.data.id],
        })
      ).status,
    ).toBe(201);
    const twice = await post(ravi.token, `/conversations/${id}/messages`, {
      text: 'again',
      clientMessageId: randomUUID(),
      attachmentIds: [mine.body.data.id],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.data.fieldErrors.attachmentIds[0]).toMatch(/already attached/);
    expect((await seqsOf(id)).length).toBe(before.length + 1);
  });

  it('notifies the messages channel on commit: a message with its stored row when it fits, else ids only; receipts ids only', async () => {
    const id = await conversationOf(ravi);
    const heard: string[] = [];
    const unlisten = await server.deps.dbHandle.listen('messages', (p) => heard.push(p));
    const noteOf = async (seq: number) => {
      await until(() => heard.some((p) => JSON.parse(p).seq === seq && JSON.parse(p).kind === 'message'), 'the notification', {
        timeoutMs: 10_000,
        intervalMs: 20,
      });
      return JSON.parse(heard.find((p) => JSON.parse(p).seq === seq && JSON.parse(p).kind === 'message')!);
    };
    try {
      const res = await send(ravi.token, id, 'had poha नमस्ते 🙏');
      const sent = res.body.data;
      // Every instance shows it from the row, as a load of it would give (no query for it).
      expect(await noteOf(sent.seq)).toEqual({
        kind: 'message',
        conversationId: id,
        seq: sent.seq,
        row: {
          id: sent.id,
          conversation_id: id,
          seq: sent.seq,
          sender_id: ravi.id,
          sender_role: 'client',
          client_message_id: sent.clientMessageId,
          text: 'had poha नमस्ते 🙏',
          sent_at: expect.any(String),
          sender_first: 'Ravi',
          sender_last: 'Kumar',
        },
      });
      expect(new Date((await noteOf(sent.seq)).row.sent_at).getTime()).toBe(new Date(sent.sentAt).getTime());
      // 4,000 characters of three bytes each do not fit in a NOTIFY (8,000 bytes): ids only, read again by each instance.
      const long = await send(ravi.token, id, 'न'.repeat(4000));
      expect(long.status).toBe(201);
      expect(await noteOf(long.body.data.seq)).toEqual({ kind: 'message', conversationId: id, seq: long.body.data.seq });
      await post(admin.token, `/conversations/${id}/read`, { seq: long.body.data.seq });
      await until(() => heard.some((p) => JSON.parse(p).kind === 'read'), 'the read receipt', { timeoutMs: 10_000, intervalMs: 20 });
      expect(heard.map((p) => JSON.parse(p)).find((e) => e.kind === 'read')).toEqual({
        kind: 'read',
        conversationId: id,
        userId: admin.id,
        seq: long.body.data.seq,
      });
    } finally {
      await unlisten();
    }
  });
});

describe('reading', () => {
  it('pages ascending by seq: the latest, before a seq (scrolling up) and after one (catching up)', async () => {
    const fresh = await server.user({ firstName: 'Pia' });
    const id = await conversationOf(fresh);
    for (let i = 1; i <= 7; i += 1) expect((await send(fresh.token, id, `m${i}`)).status).toBe(201);
    const latest = await get(fresh.token, `/conversations/${id}/messages?limit=3`);
    expect(latest.status).toBe(200);
    expect(latest.body.data.map((m: { seq: number }) => m.seq)).toEqual([5, 6, 7]);
    expect(latest.body).toMatchObject({ lastSeq: 7, readSeq: 7, seenSeq: 0 });
    const older = await get(fresh.token, `/conversations/${id}/messages?before=5&limit=3`);
    expect(older.body.data.map((m: { seq: number }) => m.seq)).toEqual([2, 3, 4]);
    const after = await get(fresh.token, `/conversations/${id}/messages?after=4&limit=2`);
    expect(after.body.data.map((m: { seq: number }) => m.seq)).toEqual([5, 6]);
    const caller = await callerFor(server, fresh.token);
    expect((await caller.messages.list({ conversationId: id, after: 2, before: 5, limit: 100 })).messages.map((m) => m.seq)).toEqual([
      3, 4,
    ]);
    // The catch-up seam the live channel replays a gap from.
    expect((await messagesAfter(server.deps.db, id, 5)).map((m) => m.seq)).toEqual([6, 7]);
    const bad = await get(fresh.token, `/conversations/${id}/messages?limit=101`);
    expect(bad.status).toBe(400);
    expect(bad.body.data.fieldErrors.limit).toEqual(['limit must be a whole number from 1 to 100']);
  });

  it('counts unread per viewer, for the client and for each dietitian, and shows "seen" as the other side’s read seq', async () => {
    const fresh = await server.user({ firstName: 'Nia' });
    const id = await conversationOf(fresh);
    await send(fresh.token, id, 'one');
    await send(fresh.token, id, 'two');
    const unreadFor = async (user: TestUser) =>
      ((await get(user.token, '/conversations?pageSize=100')).body.data as { id: number; unread: number }[]).find((c) => c.id === id)!
        .unread;
    expect(await unreadFor(admin)).toBe(2);
    expect(await unreadFor(admin2)).toBe(2);
    const read = await post(admin.token, `/conversations/${id}/read`, { seq: 1 });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ conversationId: id, lastReadSeq: 1, unread: 1 });
    expect(await unreadFor(admin)).toBe(1);
    expect(await unreadFor(admin2)).toBe(2);
    // Past the last message counts as the last; never backwards.
    expect((await post(admin.token, `/conversations/${id}/read`, { seq: 99 })).body.data).toEqual({
      conversationId: id,
      lastReadSeq: 2,
      unread: 0,
    });
    expect((await post(admin.token, `/conversations/${id}/read`, { seq: 1 })).body.data.lastReadSeq).toBe(2);
    expect((await get(fresh.token, `/conversations/${id}/messages`)).body.seenSeq).toBe(2);

    await send(admin2.token, id, 'Hello from your dietitian');
    expect(await unreadFor(fresh)).toBe(1);
    const client = httpClient(server.url, fresh.token);
    expect(await client.messages.unread.query()).toEqual({ totalUnread: 1, conversations: 1 });
    expect((await get(admin2.token, `/conversations/${id}/messages`)).body.seenSeq).toBe(2);
    await post(fresh.token, `/conversations/${id}/read`, { seq: 3 });
    expect(await client.messages.unread.query()).toEqual({ totalUnread: 0, conversations: 0 });
    expect((await get(admin2.token, `/conversations/${id}/messages`)).body.seenSeq).toBe(3);
  });

  it('records a dietitian opening a conversation in the audit log, not a client', async () => {
    const id = await conversationOf(asha);
    await get(asha.token, `/conversations/${id}/messages`);
    await get(admin.token, `/conversations/${id}/messages`);
    const entries = await server.deps.db
      .selectFrom('audit_log')
      .select(['actor_id', 'action', 'entity_id', 'details'])
      .where('entity', '=', 'conversation')
      .where('entity_id', '=', id)
      .execute();
    expect(entries.map((e) => [e.actor_id, e.action])).toEqual([[admin.id, 'conversation.opened']]);
  });
});

describe('who may read and write', () => {
  it('answers 403 for another client’s conversation and 404 for an unknown one, on every path', async () => {
    const ashas = await conversationOf(asha);
    for (const res of [
      await get(ravi.token, `/conversations/${ashas}/messages`),
      await send(ravi.token, ashas, 'hello'),
      await post(ravi.token, `/conversations/${ashas}/read`, { seq: 1 }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('You can only read and write your own conversation.');
    }
    for (const res of [
      await get(ravi.token, '/conversations/999999/messages'),
      await send(admin.token, 999999, 'hello'),
      await post(ravi.token, '/conversations/999999/read', { seq: 1 }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('That conversation does not exist.');
    }
    expect((await get(ravi.token, '/conversations/abc/messages')).status).toBe(400);
    expect((await server.request('GET', '/api/conversations')).status).toBe(401);
  });

  it('refuses a clientMessageId used in another conversation with 409', async () => {
    const key = randomUUID();
    expect((await send(admin.token, await conversationOf(asha), 'to Asha', key)).status).toBe(201);
    const res = await send(admin.token, await conversationOf(ravi), 'to Ravi', key);
    expect(res.status).toBe(409);
  });

  it('lets no one send in a deactivated client’s conversation', async () => {
    const leaving = await server.user({ firstName: 'Omar' });
    const id = await conversationOf(leaving);
    expect((await send(leaving.token, id, 'bye')).status).toBe(201);
    const dietitian = await callerFor(server, admin.token);
    await dietitian.admin.clients.setActive({ id: leaving.id, active: false });
    const res = await send(admin.token, id, 'Are you still there?');
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/deactivated/);
    expect((await send(leaving.token, id, 'one more')).status).toBe(401);
    // The history stays readable to the team.
    expect((await get(admin.token, `/conversations/${id}/messages`)).body.data).toHaveLength(1);
  });

  it('refuses new messages past the per-sender limit with 429 and Retry-After, and still answers a repeat', async () => {
    const flood = await server.user({ firstName: 'Fiona' });
    const id = await conversationOf(flood);
    const keys = Array.from({ length: LIMIT }, () => randomUUID());
    const answers = await Promise.all(keys.map((k, i) => send(flood.token, id, `m${i}`, k)));
    expect(answers.map((a) => a.status)).toEqual(keys.map(() => 201));
    const refused = await send(flood.token, id, 'one too many');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.message).toMatch(/^Too many messages sent in a short time\. Try again in 1 minute\.$/);
    expect(
      (
        await failure(
          (await callerFor(server, flood.token)).messages.send({ conversationId: id, text: 'x', clientMessageId: randomUUID() }),
        )
      ).code,
    ).toBe('TOO_MANY_REQUESTS');
    expect((await send(flood.token, id, 'm0', keys[0])).status).toBe(200);
    // A refused send takes no seq: still gapless.
    expect(await seqsOf(id)).toEqual(Array.from({ length: LIMIT }, (_, i) => i + 1));
    // Another sender in the same conversation is not held back.
    expect((await send(admin.token, id, 'Slow down, please')).status).toBe(201);
  });

  it('holds the limit when a flood arrives at once on two instances: exactly the limit stored, gapless, the rest 429', async () => {
    const flood = await server.user({ firstName: 'Farah' });
    const id = await conversationOf(flood);
    const answers = await Promise.all(
      Array.from({ length: LIMIT + 10 }, (_, i) =>
        i % 2 === 0
          ? send(flood.token, id, `burst ${i}`).then((r) => r.status)
          : fetchOn(second.url, flood.token, id, `burst ${i}`).then((r) => r.status),
      ),
    );
    expect(answers.filter((s) => s === 201)).toHaveLength(LIMIT);
    expect(answers.filter((s) => s === 429)).toHaveLength(10);
    expect(await seqsOf(id)).toEqual(Array.from({ length: LIMIT }, (_, i) => i + 1));
  });
});

/** A send through the second instance. */
async function fetchOn(url: string, token: string, conversationId: number, text: string, clientMessageId = randomUUID()) {
  const res = await fetch(`${url}/api/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text, clientMessageId }),
  });
  return { status: res.status, body: (await res.json()) as any };
}
