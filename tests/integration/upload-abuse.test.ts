import { randomUUID } from 'node:crypto';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_DECODE_CONCURRENCY, IMAGE_DECODE_WAITING, imageDecodes } from '../../server/attachments/images.js';
import { HASH_QUEUE_SATURATED, hashPassword } from '../../server/auth/password.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * Uploads that cost the server more than their size says: a form of very many
 * parts, a tiny file of a huge image, many photos at once. Each is refused or
 * queued before it costs much, and readiness tells a proxy when the instance
 * is full.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'silent', RATE_LIMIT_UPLOADS: '5/1m', UPLOAD_DAILY_MB: '50' });
});
afterAll(() => server?.stop());

const png = (w = 30, h = 30) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#0a8' } })
    .png()
    .toBuffer();

async function upload(user: TestUser, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${server.url}/api/attachments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

const uploadsOf = async (user: TestUser) =>
  Number(
    (
      await server.deps.db
        .selectFrom('attachments')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('uploader_id', '=', user.id)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A form of `count` tiny text parts (about 49 bytes each), as the red team sent. */
function manyParts(count: number) {
  const boundary = 'B';
  const part = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n`);
  const body = Buffer.alloc(part.length * count + `--${boundary}--\r\n`.length);
  for (let i = 0; i < count; i++) part.copy(body, i * part.length);
  body.write(`--${boundary}--\r\n`, part.length * count);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Sends the headers (declaring `length` bytes) and `start` of the body, and waits for an answer without sending the rest. */
function sendPartly(path: string, user: TestUser, contentType: string, length: number, start: Buffer) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': contentType, 'content-length': String(length) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error('no answer before the body was sent'));
    }, 10_000);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text });
        req.destroy();
      });
    });
    req.on('error', () => {});
    req.write(start);
  });
}

/** Sends the whole body, then reads the answer. */
function postWhole(path: string, user: TestUser, contentType: string, body: Buffer) {
  return new Promise<{ status: number; text: string; headers: IncomingHttpHeaders }>((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': contentType, 'content-length': String(body.length) },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('a form of very many parts', () => {
  it('is refused at its fifth part (400) without blocking the event loop', async () => {
    const user = await server.user();
    const { body, contentType } = manyParts(190_001);
    expect(body.length).toBeGreaterThan(9 * 1024 * 1024);
    // Sent with node:http: the tests' fetch keeps a text copy of every body it sends (for the OpenAPI check), which blocks the loop itself.
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const res = await postWhole('/api/attachments', user, contentType, body);
    delay.disable();
    expect(res.status).toBe(400);
    // Parsing every part of it blocked the loop for 1.5 s here; moving 9 MB through this busy machine blocks it up to ~0.3 s.
    expect(delay.max / 1e6).toBeLessThan(500);
    expect(JSON.parse(res.text).message).toBe('The form has more than 4 parts. Send one file, in a form field named "file".');
    expect(res.headers.connection).toBe('close');
    expect(await uploadsOf(user)).toBe(0);
  });

  it('from someone over their upload limit: 429 before a byte of the form is read', async () => {
    const user = await server.user();
    for (let i = 0; i < 5; i++) expect((await upload(user, await png(), `${i}.png`)).status).toBe(201);
    const { body, contentType } = manyParts(190_001);
    // Only the first 64 KB of the body is sent: the answer must come from the headers alone.
    const answer = await sendPartly('/api/attachments', user, contentType, body.length, body.subarray(0, 64 * 1024));
    expect(answer.status).toBe(429);
    expect(JSON.parse(answer.text).message).toBe('Too many uploads. Try again in 1 minute.');
  });

  it('whose file would pass their daily bytes: 429 from the declared length, before the form is read', async () => {
    const user = await server.user();
    await server.deps.db
      .insertInto('attachments')
      .values({
        id: randomUUID(),
        uploader_id: user.id,
        name: 'earlier.pdf',
        content_type: 'application/pdf',
        received_bytes: 45 * 1024 * 1024,
        link_key: 'k'.repeat(43),
        created_at: new Date(),
      })
      .execute();
    const head = Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="scan.pdf"\r\n\r\n%PDF-1.4\n');
    const answer = await sendPartly('/api/attachments', user, 'multipart/form-data; boundary=B', 9 * 1024 * 1024, head);
    expect(answer.status).toBe(429);
    expect(JSON.parse(answer.text).message).toBe('You have uploaded the most we take in a day (50 MB in 24 hours). Try again in 24 hours.');
  });
});

/** A 38-byte lossless WebP of 7000 × 7100 pixels of one colour (made with sharp, lossless, effort 0): decoding it took 3.5 s here. */
const BOMB = Buffer.from('UklGRh4AAABXRUJQVlA4TBEAAAAvV9vuBgdQ+OrXvP+BiOh/AAA=', 'base64');

describe('a tiny file of a huge image', () => {
  it('is refused from its header (400, naming the limit), without being decoded or counted', async () => {
    const meta = await sharp(BOMB).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 7000, 7100]);
    const user = await server.user();
    const decodesBefore = imageDecodes.load().started;
    const res = await upload(user, BOMB, 'plate.webp');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'The photo is too large (7000 × 7100 pixels): at most 26 megapixels, and 8,192 pixels a side, are accepted. ' +
        'Send it at a smaller size, or take a screenshot of it.',
    );
    expect(res.body.data.fieldErrors.file).toEqual([res.body.message]);
    expect(imageDecodes.load().started).toBe(decodesBefore);
    // Not counted against the uploader's limit: five uploads still fit.
    for (let i = 0; i < 5; i++) expect((await upload(user, await png(), `${i}.png`)).status).toBe(201);
  });

  it('a long thin image is refused by its side', async () => {
    const user = await server.user();
    const res = await upload(user, await png(9000, 10), 'strip.png');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^The photo is too large \(9000 × 10 pixels\)/);
  });
});

describe('photos decode one at a time', () => {
  it('many uploads at once are decoded within the queue’s concurrency, all taken', async () => {
    const photo = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#c84' } })
      .jpeg()
      .toBuffer();
    const users = await Promise.all([server.user(), server.user()]);
    imageDecodes.resetPeak();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => upload(users[i % 2]!, photo, `meal-${i}.jpg`)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(answers[0]!.body.data.contentType).toBe('image/jpeg');
    expect(imageDecodes.load()).toMatchObject({ peak: IMAGE_DECODE_CONCURRENCY, running: 0, waiting: 0 });
  });
});

describe('readiness sees a full pool', () => {
  it('503 while the line of photos is full, and an upload is asked to come back (503, Retry-After) without being counted', async () => {
    const places = Array.from({ length: IMAGE_DECODE_CONCURRENCY + IMAGE_DECODE_WAITING }, () => imageDecodes.take());
    const user = await server.user();
    try {
      const ready = await server.request('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 503, message: 'This instance is busy: its queue of photos to decode is full.' });
      expect(Number(ready.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await server.request('GET', '/healthz')).status).toBe(200);

      const busy = await upload(user, await png(), 'lunch.png');
      expect(busy.status).toBe(503);
      expect(busy.body.message).toBe('Many photos are being processed right now. Please send yours again in a few seconds.');
      expect(Number(busy.headers.get('retry-after'))).toBe(5);
      expect(await uploadsOf(user)).toBe(0);
    } finally {
      for (const place of places) place.leave();
    }
    expect((await server.request('GET', '/readyz')).status).toBe(200);
    expect((await upload(user, await png(), 'lunch.png')).status).toBe(201);
  });

  it('503 while password checks queue deeper than the pool can serve', async () => {
    const checks = Array.from({ length: HASH_QUEUE_SATURATED + 2 }, (_, i) => hashPassword(`password-${i}`, { ip: `203.0.113.${i}` }));
    try {
      const ready = await server.request('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.message).toBe('This instance is busy: its queue of password checks is full.');
    } finally {
      await Promise.all(checks);
    }
    expect((await server.request('GET', '/readyz')).status).toBe(200);
  });
});
