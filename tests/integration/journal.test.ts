import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayIn, shiftDay } from '../../server/journal/schema.js';
import type { JournalEvent } from '../../server/journal/schema.js';
import { callerFor, failure, wsClient } from '../helpers/callers.js';
import { addSubscription } from '../helpers/fixtures.js';
import { tinyPdf } from '../helpers/pdf.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * The meal journal and water over REST and tRPC: repeat-safe
 * creates (clientEntryId), who may read and change what (403/404/409), bad
 * values refused with nothing stored (hunger 11, a time beyond a day ahead,
 * a 15 MB photo, an HTML file as a photo), comments told to the client
 * (the event only), live changes, the plan's meals beside the day, water,
 * the per-person limit (429) and the follow-up queue's adherence.
 */
const LIMIT = 15;
let server: TestServer;
let dietitian: TestUser;
let asha: TestUser;
let ravi: TestUser;
let flooder: TestUser;
const sockets: ReturnType<typeof wsClient>[] = [];

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_JOURNAL: `${LIMIT}/1h` });
  [dietitian, asha, ravi, flooder] = await Promise.all([
    server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' }),
    server.user({ firstName: 'Asha', lastName: 'Verma' }),
    server.user({ firstName: 'Ravi', lastName: 'Kumar' }),
    server.user({ firstName: 'Flood', lastName: 'Tester' }),
  ]);
}, 600_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await server?.stop();
});

const api = (method: string, token: string, path: string, body?: unknown) => server.request(method, `/api${path}`, { token, body });
const today = () => dayIn(new Date());
const meal = (overrides: Record<string, unknown> = {}) => ({
  clientEntryId: randomUUID(),
  meal: 'breakfast',
  description: 'Poha with peanuts, a cup of chai',
  ...overrides,
});
const countEntries = async (clientId: number) =>
  Number(
    (
      await server.deps.db
        .selectFrom('meal_entries')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('client_id', '=', clientId)
        .executeTakeFirstOrThrow()
    ).n,
  );
const countAttachments = async (uploaderId: number) =>
  Number(
    (
      await server.deps.db
        .selectFrom('attachments')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('uploader_id', '=', uploaderId)
        .executeTakeFirstOrThrow()
    ).n,
  );

async function upload(token: string, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${server.url}/api/attachments`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}
const photo = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#d90' } })
    .jpeg()
    .toBuffer();

describe('logging a meal', () => {
  it('answers 201 with the entry, then 200 with the same entry for a repeated clientEntryId, storing one row', async () => {
    const body = meal({ meal: 'lunch', hungerBefore: 7, fullnessAfter: 6, note: 'Ate at my desk' });
    const first = await api('POST', asha.token, '/meals', body);
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      clientId: asha.id,
      clientEntryId: body.clientEntryId,
      meal: 'lunch',
      description: body.description,
      hungerBefore: 7,
      fullnessAfter: 6,
      note: 'Ate at my desk',
      date: today(),
      photos: [],
      comments: [],
      mark: null,
      editable: true,
      repeated: false,
    });
    const again = await api('POST', asha.token, '/meals', body);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: first.body.data.id, description: body.description, repeated: true });
    // The same key with other details is not a repeat: refused, naming what differs, and nothing changes.
    const changed = await api('POST', asha.token, '/meals', { ...body, description: 'changed on the replay', fullnessAfter: 8 });
    expect(changed).toMatchObject({
      status: 422,
      body: {
        status: 422,
        message: 'This clientEntryId was already used with different details (description, fullnessAfter). Send it with a new key.',
        data: { fieldErrors: { description: [expect.any(String)], fullnessAfter: [expect.any(String)] } },
      },
    });
    // Replays from an offline queue racing each other still make one row.
    const racing = meal();
    const answers = await Promise.all([1, 2, 3].map(() => api('POST', asha.token, '/meals', racing)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(await countEntries(asha.id)).toBe(2);
  });

  it('has a tRPC twin, takes the meal in the words people write, and defaults the time to now', async () => {
    const caller = await callerFor(server, asha.token);
    const before = Date.now();
    const saved = await caller.journal.create({
      clientEntryId: randomUUID(),
      meal: 'Evening snack',
      description: 'Roasted chana',
    } as never);
    expect(saved.meal).toBe('evening-snack');
    expect(saved.eatenAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const early = await caller.journal.create({ ...meal({ description: 'Warm water with lemon' }), meal: 'early_morning' } as never);
    expect(early.meal).toBe('early-morning');
  });

  it('refuses bad values with a clear 400 and stores nothing', async () => {
    const before = await countEntries(asha.id);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ hungerBefore: 11 }, 'hungerBefore', /1 to 10/],
      [{ fullnessAfter: 0 }, 'fullnessAfter', /1 to 10/],
      [{ eatenAt: new Date(Date.now() + 26 * 3600_000).toISOString() }, 'eatenAt', /more than a day in the future/],
      [{ eatenAt: new Date(Date.now() - 10 * 86_400_000).toISOString() }, 'eatenAt', /last 7 days/],
      [{ eatenAt: 'yesterday-ish' }, 'eatenAt', /date and time/],
      [{ meal: 'brunch' }, 'meal', /meal must be one of/],
      [{ description: '  ' }, 'description', /Write what you ate/],
      [{ clientEntryId: 'not-a-uuid' }, 'clientEntryId', /UUID/],
      [{ attachmentIds: [randomUUID()] }, 'attachmentIds', /not found among your uploads/],
    ];
    for (const [change, field, message] of cases) {
      const res = await api('POST', asha.token, '/meals', meal(change));
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.data?.fieldErrors?.[field]?.[0], field).toMatch(message);
    }
    expect(await countEntries(asha.id)).toBe(before);
    // Within a day ahead is taken (a phone whose clock or zone is off).
    expect((await api('POST', asha.token, '/meals', meal({ eatenAt: new Date(Date.now() + 60_000).toISOString() }))).status).toBe(201);
  });

  it('keeps photos through the shared storage rules: a photo is attached, a 15 MB photo and an HTML file are refused and nothing is stored', async () => {
    const up = await upload(ravi.token, await photo(), 'thali.jpg');
    expect(up.status).toBe(201);
    const saved = await api('POST', ravi.token, '/meals', meal({ meal: 'dinner', attachmentIds: [up.body.data.id] }));
    expect(saved.status).toBe(201);
    expect(saved.body.data.photos).toHaveLength(1);
    expect(saved.body.data.photos[0]).toMatchObject({ id: up.body.data.id, contentType: 'image/jpeg' });
    const image = await fetch(`${server.url}${saved.body.data.photos[0].url}`);
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    const claimed = await server.deps.db
      .selectFrom('attachments')
      .select(['client_id', 'used_for'])
      .where('id', '=', up.body.data.id)
      .executeTakeFirstOrThrow();
    expect(claimed).toEqual({ client_id: ravi.id, used_for: 'meal' });

    const entries = await countEntries(ravi.id);
    const files = await countAttachments(ravi.id);
    const big = new Uint8Array(15 * 1024 * 1024);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const tooBig = await upload(ravi.token, big, 'huge.jpg');
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toMatch(/10 MB/);
    const html = await upload(ravi.token, Buffer.from('<!DOCTYPE html><html><script>alert(1)</script></html>'), 'meal.jpg');
    expect(html.status).toBe(415);
    // A PDF is a file, not a photo of a meal.
    const pdf = await upload(ravi.token, tinyPdf(), 'report.pdf');
    expect(pdf.status).toBe(201);
    const withPdf = await api('POST', ravi.token, '/meals', meal({ attachmentIds: [pdf.body.data.id] }));
    expect(withPdf.status).toBe(400);
    expect(withPdf.body.data.fieldErrors.attachmentIds[0]).toMatch(/not a photo/);
    // Someone else's upload cannot be attached.
    const ashaUpload = await upload(asha.token, await photo(), 'mine.jpg');
    expect((await api('POST', ravi.token, '/meals', meal({ attachmentIds: [ashaUpload.body.data.id] }))).status).toBe(400);
    expect(await countEntries(ravi.id)).toBe(entries);
    expect(await countAttachments(ravi.id)).toBe(files + 1); // only the PDF, unclaimed (the cleanup deletes it after a day)
    const pdfRow = await server.deps.db
      .selectFrom('attachments')
      .select('claimed_at')
      .where('id', '=', pdf.body.data.id)
      .executeTakeFirstOrThrow();
    expect(pdfRow.claimed_at).toBeNull();
  });

  it('is for clients only: a dietitian logging a meal is refused', async () => {
    expect((await api('POST', dietitian.token, '/meals', meal())).status).toBe(403);
  });
});

describe('reading, editing and deleting', () => {
  it('lists a client’s own meals; another client’s id is 403; a dietitian names the client', async () => {
    const own = await api('GET', asha.token, '/meals');
    expect(own.status).toBe(200);
    expect(own.body.data.length).toBeGreaterThan(0);
    expect(own.body).toMatchObject({ clientId: asha.id, from: shiftDay(today(), -6), to: today() });
    expect(own.body.data.every((e: { clientId: number }) => e.clientId === asha.id)).toBe(true);
    expect((await api('GET', asha.token, `/meals?clientId=${asha.id}`)).status).toBe(200);
    expect((await api('GET', ravi.token, `/meals?clientId=${asha.id}`)).status).toBe(403);
    const team = await api('GET', dietitian.token, `/meals?clientId=${asha.id}&from=${shiftDay(today(), -30)}&to=${today()}`);
    expect(team.status).toBe(200);
    expect(team.body.data.length).toBe(own.body.data.length);
    expect((await api('GET', dietitian.token, '/meals')).status).toBe(400);
    expect((await api('GET', dietitian.token, '/meals?clientId=999999')).status).toBe(404);
    expect((await api('GET', asha.token, `/meals?from=${today()}&to=${shiftDay(today(), -1)}`)).status).toBe(400);
    expect((await api('GET', asha.token, `/meals?from=2026-01-01&to=2026-12-31`)).status).toBe(400);
    expect((await api('GET', asha.token, '/meals?from=2026-02-30')).status).toBe(400);
    expect((await api('GET', asha.token, '/meals?from=0001-01-01&to=0001-01-05')).status).toBe(400);
    expect((await api('GET', asha.token, '/water?date=9999-12-31')).status).toBe(400);
  });

  it('edits an entry of the last 7 days for its client only', async () => {
    const created = (await api('POST', asha.token, '/meals', meal())).body.data;
    const edited = await api('PATCH', asha.token, `/meals/${created.id}`, { description: 'Poha, no peanuts', hungerBefore: 5 });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ id: created.id, description: 'Poha, no peanuts', hungerBefore: 5, meal: 'breakfast' });
    expect((await api('PATCH', asha.token, `/meals/${created.id}`, { fullnessAfter: 11 })).status).toBe(400);
    expect((await api('PATCH', ravi.token, `/meals/${created.id}`, { description: 'not mine' })).status).toBe(403);
    expect((await api('DELETE', ravi.token, `/meals/${created.id}`)).status).toBe(403);
    expect((await api('PATCH', dietitian.token, `/meals/${created.id}`, { description: 'dietitian edit' })).status).toBe(403);
    expect((await api('PATCH', asha.token, '/meals/999999', { description: 'none' })).status).toBe(404);
    expect((await api('PATCH', asha.token, '/meals/abc', { description: 'none' })).status).toBe(400);
    // Moving it to yesterday moves its day.
    const yesterday = new Date(Date.now() - 86_400_000);
    const moved = await api('PATCH', asha.token, `/meals/${created.id}`, { eatenAt: yesterday.toISOString() });
    expect(moved.body.data.date).toBe(dayIn(yesterday));
    const unchanged = (await api('GET', asha.token, `/meals?from=${dayIn(yesterday)}&to=${dayIn(yesterday)}`)).body.data;
    expect(unchanged.find((e: { id: number }) => e.id === created.id)).toMatchObject({ description: 'Poha, no peanuts' });
  });

  it('refuses to change an entry older than 7 days (409)', async () => {
    const old = shiftDay(today(), -9);
    const row = await server.deps.db
      .insertInto('meal_entries')
      .values({
        client_id: asha.id,
        created_by: asha.id,
        client_entry_id: randomUUID(),
        meal: 'dinner',
        eaten_at: new Date(`${old}T14:00:00Z`),
        eaten_on: old,
        description: 'Dal rice',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await api('PATCH', asha.token, `/meals/${row.id}`, { description: 'later edit' });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/last 7 days/);
    expect((await api('DELETE', asha.token, `/meals/${row.id}`)).status).toBe(409);
    const listed = await api('GET', asha.token, `/meals?from=${old}&to=${old}`);
    expect(listed.body.data[0]).toMatchObject({ id: row.id, editable: false });
  });

  it('deletes an entry with its photos', async () => {
    const up = await upload(asha.token, await photo(), 'plate.jpg');
    const created = (await api('POST', asha.token, '/meals', meal({ attachmentIds: [up.body.data.id] }))).body.data;
    const res = await api('DELETE', asha.token, `/meals/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: created.id });
    expect(await server.deps.db.selectFrom('meal_entries').select('id').where('id', '=', created.id).executeTakeFirst()).toBeUndefined();
    expect(
      await server.deps.db.selectFrom('attachments').select('id').where('id', '=', up.body.data.id).executeTakeFirst(),
    ).toBeUndefined();
    expect((await api('DELETE', asha.token, `/meals/${created.id}`)).status).toBe(404);
  });

  it('replaces the photos of an entry on an edit', async () => {
    const [a, b] = await Promise.all([upload(asha.token, await photo(), 'a.jpg'), upload(asha.token, await photo(), 'b.jpg')]);
    const created = (await api('POST', asha.token, '/meals', meal({ attachmentIds: [a.body.data.id] }))).body.data;
    const edited = await api('PATCH', asha.token, `/meals/${created.id}`, { attachmentIds: [b.body.data.id] });
    expect(edited.status).toBe(200);
    expect(edited.body.data.photos.map((p: { id: string }) => p.id)).toEqual([b.body.data.id]);
    expect(await server.deps.db.selectFrom('attachments').select('id').where('id', '=', a.body.data.id).executeTakeFirst()).toBeUndefined();
  });
});

describe('comments and marks', () => {
  it('lets a dietitian comment (the client is told the event only, and sees it live) and the client answer', async () => {
    const entry = (await api('POST', asha.token, '/meals', meal({ description: 'Aloo paratha with butter' }))).body.data;
    const socket = wsClient(server.url, asha.token);
    sockets.push(socket);
    const events: JournalEvent[] = [];
    const sub = socket.client.journal.events.subscribe({}, { onData: (e) => events.push(e as JournalEvent) });
    await expect.poll(() => events.some((e) => e.kind === 'ready'), { timeout: 20_000 }).toBe(true);

    const mailsBefore = server.mails.length;
    const res = await api('POST', dietitian.token, `/meals/${entry.id}/comments`, { text: 'Try one paratha with curd next time.' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      entryId: entry.id,
      text: 'Try one paratha with curd next time.',
      author: { role: 'dietitian', name: 'Meera Iyer' },
    });
    await expect
      .poll(() => events.some((e) => e.kind === 'changed' && e.what === 'comment' && e.entryId === entry.id), { timeout: 20_000 })
      .toBe(true);
    await expect.poll(() => server.mails.length, { timeout: 10_000 }).toBeGreaterThan(mailsBefore);
    const mail = server.mails.at(-1)!;
    expect(mail.to).toBe(asha.email);
    expect(mail.subject).toBe('Your dietitian commented on your meal');
    expect(`${mail.text}${mail.html}`).not.toMatch(/paratha|Aloo|curd/i);
    sub.unsubscribe();

    // The client's answer is told to the care team's devices: the event and the client's first name, not the words.
    const { family_id } = await server.deps.db
      .selectFrom('sessions')
      .select('family_id')
      .where('user_id', '=', dietitian.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await server.deps.db
      .insertInto('push_subscriptions')
      .values({ user_id: dietitian.id, family_id, endpoint: `https://push.example.test/${randomUUID()}`, p256dh: 'p256dh', auth: 'auth' })
      .execute();
    const answer = await api('POST', asha.token, `/meals/${entry.id}/comments`, { text: 'OK, will do!', clientCommentId: randomUUID() });
    expect(answer.status).toBe(201);
    const told = await server.deps.db
      .selectFrom('push_deliveries')
      .select(['notification_key', 'payload'])
      .where('notification_key', '=', `meal-reply:${answer.body.data.id}:${dietitian.id}`)
      .execute();
    expect(told).toHaveLength(1);
    const payload = typeof told[0]!.payload === 'string' ? JSON.parse(told[0]!.payload) : told[0]!.payload;
    expect(payload).toMatchObject({ title: 'Asha answered on a meal', url: `/admin/clients/${asha.id}` });
    expect(JSON.stringify(payload)).not.toMatch(/will do|paratha/i);
    const repeat = await api('POST', asha.token, `/meals/${entry.id}/comments`, { text: 'OK, will do!' });
    expect(repeat.status).toBe(201); // without a key, a second comment is a second comment
    const key = randomUUID();
    expect((await api('POST', asha.token, `/meals/${entry.id}/comments`, { text: 'Once', clientCommentId: key })).status).toBe(201);
    const again = await api('POST', asha.token, `/meals/${entry.id}/comments`, { text: 'Once', clientCommentId: key });
    expect(again.status).toBe(200);
    expect(again.body.data.repeated).toBe(true);
    const other = await api('POST', asha.token, `/meals/${entry.id}/comments`, { text: 'Twice', clientCommentId: key });
    expect([other.status, other.body.message]).toEqual([
      422,
      'This clientCommentId was already used with different details (text). Send it with a new key.',
    ]);

    expect((await api('POST', ravi.token, `/meals/${entry.id}/comments`, { text: 'not mine' })).status).toBe(403);
    expect((await api('POST', asha.token, '/meals/999999/comments', { text: 'none' })).status).toBe(404);
    expect((await api('POST', asha.token, `/meals/${entry.id}/comments`, { text: '' })).status).toBe(400);
    const thread = (await api('GET', asha.token, `/meals?from=${today()}&to=${today()}`)).body.data.find(
      (e: { id: number }) => e.id === entry.id,
    );
    expect(thread.comments.map((c: { author: { role: string } }) => c.author.role)).toEqual(['dietitian', 'client', 'client', 'client']);
  });

  it('lets a dietitian mark an entry; a client cannot', async () => {
    const entry = (await api('POST', asha.token, '/meals', meal({ meal: 'mid-morning', description: 'An apple' }))).body.data;
    const team = await callerFor(server, dietitian.token);
    const marked = await team.admin.journal.mark({ entryId: entry.id, mark: 'looks-good' });
    expect(marked.mark).toMatchObject({ kind: 'looks-good', by: 'Meera Iyer' });
    expect((await team.admin.journal.mark({ entryId: entry.id, mark: null })).mark).toBeNull();
    const client = await callerFor(server, asha.token);
    expect((await failure(client.admin.journal.mark({ entryId: entry.id, mark: 'lets-talk' }))).code).toBe('FORBIDDEN');
    expect((await failure(team.admin.journal.mark({ entryId: 999999, mark: 'lets-talk' }))).code).toBe('NOT_FOUND');
  });

  it('refuses another client’s live journal', async () => {
    const socket = wsClient(server.url, ravi.token);
    sockets.push(socket);
    const errors: unknown[] = [];
    socket.client.journal.events.subscribe({ clientId: asha.id }, { onData: () => {}, onError: (e) => errors.push(e) });
    await expect.poll(() => errors.length, { timeout: 20_000 }).toBe(1);
    expect((errors[0] as { data?: { code?: string } }).data?.code).toBe('FORBIDDEN');
  });
});

describe('water', () => {
  it('counts glasses per day for the client, readable by the dietitians', async () => {
    expect((await api('GET', asha.token, `/water?date=${today()}`)).body.data).toEqual({ clientId: asha.id, date: today(), glasses: 0 });
    const put = await api('PUT', asha.token, '/water', { date: today(), glasses: 3 });
    expect(put.status).toBe(200);
    expect((await api('PUT', asha.token, '/water', { date: today(), glasses: 4 })).body.data.glasses).toBe(4);
    expect((await api('GET', asha.token, '/water')).body.data.glasses).toBe(4);
    expect((await api('GET', dietitian.token, `/water?clientId=${asha.id}&date=${today()}`)).body.data.glasses).toBe(4);
    expect((await api('GET', ravi.token, `/water?clientId=${asha.id}`)).status).toBe(403);
    expect((await api('PUT', dietitian.token, '/water', { date: today(), glasses: 2 })).status).toBe(403);
    for (const bad of [
      { date: shiftDay(today(), 2), glasses: 1 },
      { date: shiftDay(today(), -8), glasses: 1 },
      { date: today(), glasses: 31 },
      { date: today(), glasses: -1 },
      { date: today(), glasses: 1.5 },
      { date: '2026-13-01', glasses: 1 },
    ]) {
      expect((await api('PUT', asha.token, '/water', bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await api('GET', asha.token, '/water')).body.data.glasses).toBe(4);
  });
});

describe('the day view', () => {
  it('puts the diet plan’s meals for the day beside the day’s meals and water', async () => {
    const client = await server.user({ firstName: 'Plan', lastName: 'Follower' });
    const date = today();
    const content = {
      title: 'Week plan',
      from: shiftDay(date, -3),
      to: shiftDay(date, 3),
      days: [
        {
          label: 'Day A',
          meals: [{ time: '08:00', name: 'Breakfast', items: [{ food: 'Moong chilla', portion: { quantity: 2, unit: 'piece' } }] }],
        },
        { label: 'Day B', meals: [{ time: '13:00', name: 'Lunch', items: [{ food: 'Dal', portion: { quantity: 1, unit: 'katori' } }] }] },
      ],
      guidelines: [],
    };
    await server.deps.db
      .insertInto('diet_plans')
      .values({
        client_id: client.id,
        title: 'Week plan',
        from_date: content.from,
        to_date: content.to,
        pdf_data: tinyPdf(),
        pdf_bytes: tinyPdf().byteLength,
        created_by: dietitian.id,
        source: 'composed',
        content: JSON.stringify(content),
      })
      .execute();
    await api('POST', client.token, '/meals', meal());
    await api('PUT', client.token, '/water', { date, glasses: 5 });
    const caller = await callerFor(server, client.token);
    const day = await caller.journal.day({});
    expect(day).toMatchObject({ clientId: client.id, date, today: date, water: 5, editableFrom: shiftDay(date, -6) });
    expect(day.entries).toHaveLength(1);
    expect(day.loggedDays).toContain(date);
    // Day 4 of a two-day cycle is its second day.
    expect(day.plan).toMatchObject({
      title: 'Week plan',
      dayLabel: 'Day B',
      meals: [{ time: '13:00', name: 'Lunch', items: ['Dal, 1 katori'] }],
    });
    const outside = await caller.journal.day({ date: shiftDay(date, 5) });
    expect(outside.plan).toBeNull();
    const team = await callerFor(server, dietitian.token);
    expect((await team.journal.day({ clientId: client.id })).entries).toHaveLength(1);
    expect((await failure(caller.journal.day({ clientId: asha.id }))).code).toBe('FORBIDDEN');
  });
});

describe('the follow-up queue', () => {
  it('shows journal adherence: days logged of the last 7 and the last day logged', async () => {
    const client = await server.user({ firstName: 'Queue', lastName: 'Client' });
    await addSubscription(server, client.id, shiftDay(today(), -20));
    await api('POST', client.token, '/meals', meal());
    await api('POST', client.token, '/meals', meal({ meal: 'lunch' }));
    await api('POST', client.token, '/meals', meal({ eatenAt: new Date(Date.now() - 2 * 86_400_000).toISOString() }));
    const team = await callerFor(server, dietitian.token);
    const row = (await team.admin.followUps.queue()).rows.find((r) => r.clientId === client.id)!;
    expect(row.journal).toEqual({ daysLogged: 2, lastLogged: today(), intake: null });
  });
});

describe('RATE_LIMIT_JOURNAL', () => {
  it('refuses new entries past the limit with 429 and Retry-After; repeats are not counted', async () => {
    const first = meal();
    for (let i = 0; i < LIMIT; i += 1) {
      const res = await api('POST', flooder.token, '/meals', i === 0 ? first : meal());
      expect(res.status).toBe(201);
    }
    expect((await api('POST', flooder.token, '/meals', first)).status).toBe(200);
    const refused = await api('POST', flooder.token, '/meals', meal());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await countEntries(flooder.id)).toBe(LIMIT);
  });
});
