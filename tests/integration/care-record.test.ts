import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceDay } from '../../server/time.js';
import { callerFor } from '../helpers/callers.js';
import { addSubscription } from '../helpers/fixtures.js';
import { tinyPdf } from '../helpers/pdf.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * The care record over REST (decision 117): intake, goals, measurements,
 * progress photos and documents. Every path for the client, the dietitian and
 * another client (403); repeats of a clientRequestId answer 200 with the
 * first; bad values are a clear 4xx with nothing stored; floods stop at 429.
 */
const LIMIT = 8;
let server: TestServer;
let asha: TestUser;
let rohan: TestUser;
let dietitian: TestUser;
let flood: TestUser;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_CARE_RECORD: `${LIMIT}/1h`, RATE_LIMIT_INTAKE_SAVES: '40/1h' });
  [asha, rohan, dietitian, flood] = await Promise.all([
    server.user({ firstName: 'Asha' }),
    server.user({ firstName: 'Rohan' }),
    server.user({ role: 'admin', firstName: 'Meera' }),
    server.user({ firstName: 'Fiona' }),
  ]);
}, 180_000);
afterAll(() => server?.stop());

const today = () => serviceDay(new Date());
const dayOffset = (days: number) => new Date(Date.parse(`${today()}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const count = async (table: 'goals' | 'body_measurements' | 'progress_photos' | 'documents' | 'intakes', clientId: number) =>
  Number(
    (
      await server.deps.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('client_id', '=', clientId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const photo = (w = 60, h = 80) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 20, g: 160, b: 140 } } })
    .jpeg()
    .toBuffer();

async function upload(token: string, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${server.url}/api/attachments`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

/** An upload the server may answer before reading it all (too large): the answer, whatever happens to the rest of the body. */
function uploadAnswered(token: string, bytes: Buffer, name: string) {
  const boundary = 'care-record-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/jpeg\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return new Promise<{ status: number; message: string }>((resolve, reject) => {
    const req = httpRequest(`${server.url}/api/attachments`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(body.length),
      },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, message: JSON.parse(text).message }));
    });
    req.on('error', (err) => (answered ? undefined : reject(err)));
    req.end(body);
  });
}

describe('intake questionnaire', () => {
  it('starts empty, keeps a half-filled form, refuses "done" without the required answers, then finishes', async () => {
    const first = await server.request('GET', '/api/intake', { token: asha.token });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ clientId: asha.id, state: 'not-started', completedAt: null });

    const draft = await server.request('PUT', '/api/intake', {
      token: asha.token,
      body: { answers: { conditions: ['pcos', 'thyroid'], dietPattern: 'jain', medicines: 'Thyronorm 50 mcg' } },
    });
    expect(draft.status).toBe(200);
    expect(draft.body).toMatchObject({ message: 'Intake saved as a draft.', data: { state: 'in-progress' } });

    const early = await server.request('PUT', '/api/intake', {
      token: asha.token,
      body: { answers: { ...draft.body.data.answers }, complete: true },
    });
    expect(early.status).toBe(400);
    expect(early.body.message).toBe('Tell us about a typical day’s meals and their times');
    expect(Object.keys(early.body.data.fieldErrors)).toEqual(
      expect.arrayContaining(['answers.typicalDay', 'answers.activityLevel', 'answers.sleepHours', 'answers.goalsInWords']),
    );
    expect((await server.request('GET', '/api/intake', { token: asha.token })).body.data).toMatchObject({
      state: 'in-progress',
      answers: { dietPattern: 'jain', medicines: 'Thyronorm 50 mcg', conditions: ['pcos', 'thyroid'] },
    });

    const done = await server.request('PUT', '/api/intake', {
      token: asha.token,
      body: {
        answers: {
          ...draft.body.data.answers,
          typicalDay: '7am tea, 9am poha, 1pm dal rice, 8pm roti sabzi',
          activityLevel: 'light',
          sleepHours: '7.5',
          goalsInWords: 'Regular periods and 6 kg less by summer',
        },
        complete: true,
      },
    });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ state: 'done', answers: { sleepHours: 7.5 } });
    // An edit later keeps it finished.
    const edit = await server.request('PUT', '/api/intake', {
      token: asha.token,
      body: { answers: { ...done.body.data.answers, cuisine: 'Marwari' } },
    });
    expect(edit.body.data).toMatchObject({ state: 'done', answers: { cuisine: 'Marwari' } });
  });

  it('names the field of a bad answer and stores nothing', async () => {
    for (const [answers, field, message] of [
      [{ dietPattern: 'keto' }, 'answers.dietPattern', 'Choose one of the diet patterns listed'],
      [{ sleepHours: 30 }, 'answers.sleepHours', 'Sleep must be between 2 and 16 hours a night'],
      [{ conditions: ['pcos', 'pcos'] }, 'answers.conditions', 'Choose each condition once'],
      [{ medicines: 'x'.repeat(1001) }, 'answers.medicines', 'Medicines and supplements must be at most 1000 characters'],
    ] as const) {
      const answer = await server.request('PUT', '/api/intake', { token: rohan.token, body: { answers } });
      expect(answer.status).toBe(400);
      expect(answer.body.data.fieldErrors[field]).toEqual([message]);
    }
    expect(await count('intakes', rohan.id)).toBe(0);
  });

  it('lets a dietitian read and edit a client’s intake by clientId; another client gets 403', async () => {
    const read = await server.request('GET', `/api/intake?clientId=${asha.id}`, { token: dietitian.token });
    expect(read.body.data).toMatchObject({ clientId: asha.id, state: 'done' });
    expect((await server.request('GET', '/api/intake', { token: dietitian.token })).status).toBe(400);
    expect((await server.request('GET', `/api/intake?clientId=${asha.id}`, { token: rohan.token })).status).toBe(403);
    const put = await server.request('PUT', '/api/intake', { token: rohan.token, body: { clientId: asha.id, answers: {} } });
    expect(put.status).toBe(403);
    expect((await server.request('GET', '/api/intake', { token: asha.token })).body.data.answers.cuisine).toBe('Marwari');
  });

  it('shows "intake missing" in the follow-up queue until it is done', async () => {
    await addSubscription(server, rohan.id, dayOffset(-10));
    await addSubscription(server, asha.id, dayOffset(-10));
    const queue = await (await callerFor(server, dietitian.token)).admin.followUps.queue();
    const missing = (id: number) => queue.rows.find((r) => r.clientId === id)?.intakeMissing;
    expect(missing(asha.id)).toBe(false);
    expect(missing(rohan.id)).toBe(true);
  });
});

describe('goals', () => {
  it('sets goals once per clientRequestId and shows progress towards the target weight', async () => {
    await server.request('POST', '/api/updated-weights/add-updated-weight', {
      token: asha.token,
      body: { weight: 80, date: dayOffset(-30) },
    });
    await server.request('POST', '/api/updated-weights/add-updated-weight', {
      token: asha.token,
      body: { weight: 77, date: dayOffset(-1) },
    });
    const body = {
      clientRequestId: randomUUID(),
      targetWeightKg: 74,
      targetDate: dayOffset(90),
      waistCm: 80,
      waterGlasses: 8,
      steps: 8000,
      habit: 'A walk after dinner',
    };
    const answers = await Promise.all([1, 2, 3].map(() => server.request('POST', '/api/goals', { token: asha.token, body })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(answers.find((a) => a.status === 200)?.body).toMatchObject({
      message: 'This goal setting was saved already.',
      data: { repeated: true },
    });
    expect(await count('goals', asha.id)).toBe(1);

    const overview = await server.request('GET', '/api/goals', { token: asha.token });
    expect(overview.status).toBe(200);
    expect(overview.body.data.current).toMatchObject({
      targetWeightKg: 74,
      waterGlasses: 8,
      steps: 8000,
      habit: 'A walk after dinner',
      setBy: expect.stringMatching(/^Asha/),
    });
    expect(overview.body.data.progress).toMatchObject({ startWeightKg: 77, latestWeightKg: 77, weightPercent: 0, daysLeft: 90 });
  });

  it('lets the dietitian set goals for the client; the newest setting is current', async () => {
    const set = await server.request('POST', '/api/goals', {
      token: dietitian.token,
      body: { clientId: asha.id, clientRequestId: randomUUID(), targetWeightKg: 72, targetDate: dayOffset(120), steps: 10000 },
    });
    expect(set.status).toBe(201);
    const overview = await server.request('GET', `/api/goals?clientId=${asha.id}`, { token: dietitian.token });
    expect(overview.body.data.current).toMatchObject({
      targetWeightKg: 72,
      steps: 10000,
      waterGlasses: null,
      setBy: expect.stringMatching(/^Meera/),
    });
    expect(overview.body.data.history).toHaveLength(2);
  });

  it('refuses bad goals with a clear 400 and stores nothing', async () => {
    const before = await count('goals', rohan.id);
    for (const [goal, field, message] of [
      [{ targetWeightKg: 70, targetDate: dayOffset(-1) }, 'targetDate', 'The target date must be after today'],
      [{ targetWeightKg: 70, targetDate: today() }, 'targetDate', 'The target date must be after today'],
      [{ targetWeightKg: 70 }, 'targetDate', 'Give the date to reach the target weight by'],
      [{ targetWeightKg: 900, targetDate: dayOffset(30) }, 'targetWeightKg', 'Weight must be between 1 and 500 kg'],
      [{ waterGlasses: 0 }, 'waterGlasses', 'Daily water must be between 1 and 30 glasses'],
      [{ steps: 8000.5 }, 'steps', 'Daily steps is a whole number'],
      [{}, 'targetWeightKg', 'Set at least one goal: a target weight with its date, waist, daily water, steps or a habit'],
    ] as const) {
      const answer = await server.request('POST', '/api/goals', { token: rohan.token, body: { clientRequestId: randomUUID(), ...goal } });
      expect(answer.status, JSON.stringify(goal)).toBe(400);
      expect(answer.body.data.fieldErrors[field]).toEqual([message]);
    }
    expect((await server.request('POST', '/api/goals', { token: rohan.token, body: { steps: 9000 } })).status).toBe(400);
    expect(await count('goals', rohan.id)).toBe(before);
  });

  it('answers 403 for another client’s goals', async () => {
    expect((await server.request('GET', `/api/goals?clientId=${asha.id}`, { token: rohan.token })).status).toBe(403);
    const post = await server.request('POST', '/api/goals', {
      token: rohan.token,
      body: { clientId: asha.id, clientRequestId: randomUUID(), steps: 5000 },
    });
    expect(post.status).toBe(403);
  });
});

describe('measurements', () => {
  it('records measurements once per key, lists them newest first, for the client and the dietitian', async () => {
    const body = { clientRequestId: randomUUID(), date: dayOffset(-14), waistCm: 88, hipCm: '101.25', chestCm: 94 };
    const first = await server.request('POST', '/api/measurements', { token: asha.token, body });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ waistCm: 88, hipCm: 101.3, armCm: null, repeated: false });
    const again = await server.request('POST', '/api/measurements', { token: asha.token, body });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: first.body.data.id, waistCm: 88, repeated: true });
    // The key with another waist is not a repeat: refused, naming it.
    const changed = await server.request('POST', '/api/measurements', { token: asha.token, body: { ...body, waistCm: 87 } });
    expect([changed.status, changed.body.message]).toEqual([
      422,
      'This clientRequestId was already used with different details (waistCm). Send it with a new key.',
    ]);
    const byDietitian = await server.request('POST', '/api/measurements', {
      token: dietitian.token,
      body: { clientId: asha.id, clientRequestId: randomUUID(), date: today(), waistCm: 86, thighCm: 55 },
    });
    expect(byDietitian.status).toBe(201);
    const list = await server.request('GET', `/api/measurements?clientId=${asha.id}`, { token: dietitian.token });
    expect(list.body.data.map((m: { waistCm: number }) => m.waistCm)).toEqual([86, 88]);
    expect((await server.request('GET', '/api/goals', { token: asha.token })).body.data.progress.latestWaistCm).toBe(86);
  });

  it('refuses a future date, bad sizes and an empty entry; 403 for another client', async () => {
    for (const [values, field, message] of [
      [{ date: dayOffset(2), waistCm: 80 }, 'date', 'The date cannot be in the future'],
      [{ date: dayOffset(1), waistCm: 80 }, 'date', 'The date cannot be in the future'],
      [{ date: '2026-02-30', waistCm: 80 }, 'date', 'Use a real date in the form YYYY-MM-DD'],
      [{ date: today(), waistCm: 5 }, 'waistCm', 'Waist must be between 10 and 250 cm'],
      [{ date: today(), armCm: 'thin' }, 'armCm', 'Arm must be a number'],
      [{ date: today() }, 'waistCm', 'Enter at least one measurement: waist, hip, chest, arm or thigh'],
    ] as const) {
      const answer = await server.request('POST', '/api/measurements', {
        token: rohan.token,
        body: { clientRequestId: randomUUID(), ...values },
      });
      expect(answer.status, JSON.stringify(values)).toBe(400);
      expect(answer.body.data.fieldErrors[field]).toEqual([message]);
    }
    expect(await count('body_measurements', rohan.id)).toBe(0);
    expect((await server.request('GET', `/api/measurements?clientId=${asha.id}`, { token: rohan.token })).status).toBe(403);
    const post = await server.request('POST', '/api/measurements', {
      token: rohan.token,
      body: { clientId: asha.id, clientRequestId: randomUUID(), date: today(), waistCm: 70 },
    });
    expect(post.status).toBe(403);
  });
});

describe('progress photos', () => {
  it('claims an uploaded photo once per key; the client and dietitians see it, another client gets 403', async () => {
    const front = await upload(asha.token, await photo(), 'front.jpg');
    expect(front.status).toBe(201);
    const body = { clientRequestId: randomUUID(), date: dayOffset(-7), pose: 'front', attachmentId: front.body.data.id };
    const first = await server.request('POST', '/api/progress-photos', { token: asha.token, body });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      pose: 'front',
      date: dayOffset(-7),
      photo: { id: front.body.data.id, contentType: 'image/jpeg' },
    });
    const again = await server.request('POST', '/api/progress-photos', { token: asha.token, body });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: first.body.data.id, repeated: true });

    const side = await upload(dietitian.token, await photo(80, 60), 'side.png.jpg');
    const bySide = await server.request('POST', '/api/progress-photos', {
      token: dietitian.token,
      body: { clientId: asha.id, clientRequestId: randomUUID(), date: dayOffset(-7), pose: 'side', attachmentId: side.body.data.id },
    });
    expect(bySide.status).toBe(201);

    const list = await server.request('GET', '/api/progress-photos', { token: asha.token });
    expect(list.body.data.map((p: { pose: string }) => p.pose)).toEqual(['front', 'side']);
    const file = await fetch(new URL(list.body.data[0].photo.url, server.url));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect((await server.request('GET', `/api/progress-photos?clientId=${asha.id}`, { token: dietitian.token })).body.data).toHaveLength(2);
    expect((await server.request('GET', `/api/progress-photos?clientId=${asha.id}`, { token: rohan.token })).status).toBe(403);
    // Another client's photo is not Rohan's to open with his session either.
    const direct = await fetch(`${server.url}/api/attachments/${front.body.data.id}`, {
      headers: { authorization: `Bearer ${rohan.token}` },
    });
    expect(direct.status).toBe(403);
  });

  it('refuses a 15 MB photo (413), an HTML file as a photo (415), a PDF, another’s upload and a future date; nothing stored', async () => {
    const tooBig = await uploadAnswered(rohan.token, Buffer.concat([await photo(), Buffer.alloc(15 * 1024 * 1024)]), 'huge.jpg');
    expect(tooBig).toEqual({ status: 413, message: 'The file is too large: at most 10 MB is accepted.' });
    const html = await upload(rohan.token, Buffer.from('<!DOCTYPE html><html><body><script>alert(1)</script></body></html>'), 'me.jpg');
    expect(html.status).toBe(415);
    expect(html.body.message).toMatch(/cannot be attached. Send a photo/);

    const pdf = await upload(rohan.token, tinyPdf(), 'scan.pdf');
    const asPhoto = await server.request('POST', '/api/progress-photos', {
      token: rohan.token,
      body: { clientRequestId: randomUUID(), date: today(), pose: 'front', attachmentId: pdf.body.data.id },
    });
    expect(asPhoto.status).toBe(400);
    expect(asPhoto.body.message).toBe('A progress photo must be a photo (JPEG, PNG or WebP), not a PDF.');

    const ashas = await upload(asha.token, await photo(), 'mine.jpg');
    const stolen = await server.request('POST', '/api/progress-photos', {
      token: rohan.token,
      body: { clientRequestId: randomUUID(), date: today(), pose: 'front', attachmentId: ashas.body.data.id },
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.data.fieldErrors.attachmentId).toEqual(['A file to attach was not found among your uploads. Upload it again.']);

    const good = await upload(rohan.token, await photo(), 'good.jpg');
    for (const [values, field] of [
      [{ date: dayOffset(3), pose: 'front' }, 'date'],
      [{ date: today(), pose: 'back' }, 'pose'],
    ] as const) {
      const answer = await server.request('POST', '/api/progress-photos', {
        token: rohan.token,
        body: { clientRequestId: randomUUID(), attachmentId: good.body.data.id, ...values },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.data.fieldErrors[field]).toBeDefined();
    }
    expect(await count('progress_photos', rohan.id)).toBe(0);
    const unclaimed = await server.deps.db
      .selectFrom('attachments')
      .select('id')
      .where('uploader_id', '=', rohan.id)
      .where('claimed_at', 'is not', null)
      .execute();
    expect(unclaimed).toEqual([]);
  });
});

describe('documents', () => {
  it('lists uploads by the client and the dietitian with every file sent in the conversation, newest date first', async () => {
    const report = await upload(asha.token, tinyPdf(), 'thyroid-profile.pdf');
    const body = {
      clientRequestId: randomUUID(),
      kind: 'lab-report',
      title: 'Thyroid profile',
      date: dayOffset(-20),
      attachmentId: report.body.data.id,
    };
    const first = await server.request('POST', '/api/documents', { token: asha.token, body });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      kind: 'lab-report',
      title: 'Thyroid profile',
      addedBy: 'client',
      file: { contentType: 'application/pdf' },
    });
    const again = await server.request('POST', '/api/documents', { token: asha.token, body });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: first.body.data.id, repeated: true });
    expect(await count('documents', asha.id)).toBe(1);

    const rx = await upload(dietitian.token, await photo(), 'prescription.jpg');
    const byDietitian = await server.request('POST', '/api/documents', {
      token: dietitian.token,
      body: {
        clientId: asha.id,
        clientRequestId: randomUUID(),
        kind: 'prescription',
        title: 'Metformin 500',
        date: dayOffset(-2),
        attachmentId: rx.body.data.id,
      },
    });
    expect(byDietitian.status).toBe(201);
    expect(byDietitian.body.data.addedBy).toBe('dietitian');

    const sent = await upload(asha.token, await photo(), 'lunch.jpg');
    const conversations = await server.request('GET', '/api/conversations', { token: asha.token });
    const message = await server.request('POST', `/api/conversations/${conversations.body.data[0].id}/messages`, {
      token: asha.token,
      body: { clientMessageId: randomUUID(), text: 'My sugar report', attachmentIds: [sent.body.data.id] },
    });
    expect(message.status).toBe(201);

    for (const token of [asha.token, dietitian.token]) {
      const list = await server.request('GET', `/api/documents?clientId=${asha.id}`, { token });
      expect(list.status).toBe(200);
      expect(list.body.data.map((d: { kind: string; title: string }) => [d.kind, d.title])).toEqual([
        ['conversation', 'lunch.jpg'],
        ['prescription', 'Metformin 500'],
        ['lab-report', 'Thyroid profile'],
      ]);
    }
    expect((await server.request('GET', `/api/documents?clientId=${asha.id}`, { token: rohan.token })).status).toBe(403);
  });

  it('refuses bad documents with a clear 400 and nothing stored', async () => {
    const file = await upload(rohan.token, tinyPdf(), 'report.pdf');
    for (const [values, field, message] of [
      [{ kind: 'x-ray', title: 'Chest', date: today() }, 'kind', 'Choose lab report, prescription or other'],
      [{ kind: 'other', title: '  ', date: today() }, 'title', 'The title is required'],
      [{ kind: 'other', title: 'Report', date: dayOffset(5) }, 'date', 'The date cannot be in the future'],
    ] as const) {
      const answer = await server.request('POST', '/api/documents', {
        token: rohan.token,
        body: { clientRequestId: randomUUID(), attachmentId: file.body.data.id, ...values },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.data.fieldErrors[field]).toEqual([message]);
    }
    const foreign = await server.request('POST', '/api/documents', {
      token: rohan.token,
      body: {
        clientId: asha.id,
        clientRequestId: randomUUID(),
        kind: 'other',
        title: 'Sneaky',
        date: today(),
        attachmentId: file.body.data.id,
      },
    });
    expect(foreign.status).toBe(403);
    expect(await count('documents', rohan.id)).toBe(0);
    expect(await count('documents', asha.id)).toBe(2);
  });
});

describe('limits', () => {
  it('stops a flood of new entries per client with 429; repeats are not counted', async () => {
    const key = randomUUID();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      const body = { clientRequestId: i < 3 ? key : randomUUID(), date: today(), waistCm: i < 3 ? 80 : 80 + i };
      statuses.push((await server.request('POST', '/api/measurements', { token: flood.token, body })).status);
    }
    expect(statuses).toEqual([201, 200, 200, ...Array(LIMIT - 1).fill(201)]);
    const refused = await server.request('POST', '/api/goals', {
      token: flood.token,
      body: { clientRequestId: randomUUID(), steps: 5000 },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await count('body_measurements', flood.id)).toBe(LIMIT);
  });
});
