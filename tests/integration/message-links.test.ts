import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, failure, httpClient } from '../helpers/callers.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * Signed links of files in an open chat: they expire after 15
 * minutes by the server's clock (a clock this test moves), and a chat left
 * open longer asks messages.files for fresh ones, for the files of that
 * conversation only, as whoever may read it.
 */
let now = Date.now();
let server: TestServer;
let dietitian: TestUser;
let asha: TestUser;
let ravi: TestUser;

beforeAll(async () => {
  server = await startTestServer({}, { clock: () => new Date(now) });
  [dietitian, asha, ravi] = await Promise.all([
    server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' }),
    server.user({ firstName: 'Asha', lastName: 'Verma' }),
    server.user({ firstName: 'Ravi', lastName: 'Kumar' }),
  ]);
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

async function conversationOf(user: TestUser): Promise<number> {
  return (await server.request('GET', '/api/conversations', { token: user.token })).body.data[0].id;
}

async function sendPhoto(user: TestUser, conversationId: number) {
  const form = new FormData();
  const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3a7' } })
    .jpeg()
    .toBuffer();
  form.append('file', new Blob([new Uint8Array(jpeg)]), 'thali.jpg');
  const up = await fetch(`${server.url}/api/attachments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}` },
    body: form,
  });
  const { id } = ((await up.json()) as { data: { id: string } }).data;
  const sent = await server.request('POST', `/api/conversations/${conversationId}/messages`, {
    token: user.token,
    body: { text: 'My thali', clientMessageId: randomUUID(), attachmentIds: [id] },
  });
  expect(sent.status).toBe(201);
  return sent.body.data.attachments[0] as { id: string; url: string; thumbnailUrl: string };
}

const open = async (link: string) => {
  const res = await fetch(new URL(link, server.url));
  return {
    status: res.status,
    body: res.headers.get('content-type')?.includes('json') ? ((await res.json()) as { message: string }) : null,
  };
};

describe('signed links in an open chat', () => {
  it('expire after 15 minutes, and messages.files answers fresh ones for that conversation’s files', async () => {
    const conversationId = await conversationOf(asha);
    const file = await sendPhoto(asha, conversationId);
    expect((await open(file.url)).status).toBe(200);

    now += 14 * 60_000;
    expect((await open(file.thumbnailUrl)).status).toBe(200);
    now += 2 * 60_000;
    const stale = await open(file.url);
    expect(stale.status).toBe(403);
    expect(stale.body?.message).toMatch(/expired/);

    // The chat asks again, as the client and as a dietitian: the new links open the photo and its preview.
    for (const viewer of [asha, dietitian]) {
      const [fresh] = await httpClient(server.url, viewer.token).messages.files.query({ conversationId, attachmentIds: [file.id] });
      expect(fresh!.id).toBe(file.id);
      expect(fresh!.url).not.toBe(file.url);
      expect((await open(fresh!.url)).status).toBe(200);
      expect((await open(fresh!.thumbnailUrl!)).status).toBe(200);
    }

    // And again after another 20 minutes: a chat open for an afternoon keeps its photos.
    now += 20 * 60_000;
    const [later] = await httpClient(server.url, asha.token).messages.files.query({ conversationId, attachmentIds: [file.id] });
    expect((await open(later!.url)).status).toBe(200);
  });

  it('answers only files of that conversation, and only to whoever may read it', async () => {
    const ashas = await conversationOf(asha);
    const ravis = await conversationOf(ravi);
    const ravisFile = await sendPhoto(ravi, ravis);
    // Ravi's file named in Asha's conversation is left out, even to a dietitian.
    expect(
      await httpClient(server.url, dietitian.token).messages.files.query({ conversationId: ashas, attachmentIds: [ravisFile.id] }),
    ).toEqual([]);
    // Asha cannot ask in Ravi's conversation; an unknown conversation is 404; a bad id is refused at the field.
    // Refusals read through the in-process caller, which throws them as the server does (failure() describes them).
    const asAsha = await callerFor(server, asha.token);
    expect((await failure(asAsha.messages.files({ conversationId: ravis, attachmentIds: [ravisFile.id] }))).code).toBe('FORBIDDEN');
    expect((await failure(asAsha.messages.files({ conversationId: 999_999, attachmentIds: [ravisFile.id] }))).code).toBe('NOT_FOUND');
    const bad = await failure(asAsha.messages.files({ conversationId: ashas, attachmentIds: ['not-a-uuid'] }));
    expect(bad.code).toBe('BAD_REQUEST');
    expect(Object.keys(bad.fieldErrors ?? {})).toEqual(['attachmentIds.0']);
  });
});
