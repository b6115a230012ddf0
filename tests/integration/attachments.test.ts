import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLEANUP_JOB } from '../../server/attachments/cleanup.js';
import { MAX_ATTACHMENT_BYTES } from '../../server/attachments/limits.js';
import { attachmentViews, claimAttachments, storageKey } from '../../server/attachments/service.js';
import { ROLE } from '../../server/auth/roles.js';
import { AppError } from '../../server/errors.js';
import { holdLocalFilesLock, LocalFilesElsewhereError } from '../../server/storage/single-instance.js';
import { tinyPdf } from '../helpers/pdf.js';
import { startS3Server } from '../helpers/s3.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

let server: TestServer;
let dataDir: string;
let alice: TestUser;
let bob: TestUser;
let dietitian: TestUser;

const CAMERA = 'PoshanTestCamera';

/** A 40×20 JPEG that says "rotate 90° clockwise to show" (EXIF orientation 6), with a camera name and a GPS position. */
const photoWithGps = () =>
  sharp({ create: { width: 40, height: 20, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: CAMERA, Model: 'X1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '12/1 58/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '77/1 35/1 0/1' },
    })
    .toBuffer();
const png = (w = 30, h = 30) =>
  sharp({ create: { width: w, height: h, channels: 4, background: '#0a8' } })
    .png()
    .toBuffer();
const webp = () =>
  sharp({ create: { width: 30, height: 30, channels: 3, background: '#08a' } })
    .webp()
    .toBuffer();
/** A PDF of about `bytes` (stored as it is, so it sizes the upload exactly). */
const pdfOf = (bytes: number) => {
  const head = Buffer.from('%PDF-1.4\n');
  const tail = Buffer.from('\n%%EOF\n');
  return Buffer.concat([head, Buffer.alloc(Math.max(0, bytes - head.length - tail.length), 0x20), tail]);
};

async function upload(token: string | undefined, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${server.url}/api/attachments`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

const get = (pathOrUrl: string, token?: string) =>
  fetch(new URL(pathOrUrl, server.url), { headers: token ? { authorization: `Bearer ${token}` } : {} });

const storedCount = async (uploaderId: number) =>
  Number(
    (
      await server.deps.db
        .selectFrom('attachments')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('uploader_id', '=', uploaderId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const filesOnDisk = () => {
  try {
    return readdirSync(path.join(dataDir, 'files', 'attachments'));
  } catch {
    return [];
  }
};

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'poshan-attachments-'));
  server = await startTestServer({ DATA_DIR: dataDir, RATE_LIMIT_UPLOADS: '5/1m', UPLOAD_DAILY_MB: '10' });
  [alice, bob, dietitian] = await Promise.all([
    server.user({ firstName: 'Alice' }),
    server.user({ firstName: 'Bob' }),
    server.user({ role: 'admin' }),
  ]);
});
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('POST /api/attachments', () => {
  it('re-encodes a photo: turned upright, every bit of EXIF and GPS gone, a thumbnail made, the original never kept', async () => {
    const original = await photoWithGps();
    expect((await sharp(original).metadata()).exif?.toString('latin1')).toContain(CAMERA);
    const res = await upload(alice.token, original, 'lunch.jpg');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      status: 201,
      message: 'File uploaded',
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'lunch.jpg',
        contentType: 'image/jpeg',
        size: expect.any(Number),
        url: expect.stringMatching(/^\/api\/attachments\/[0-9a-f-]{36}\?exp=\d+&sig=[\w-]{43}$/),
        thumbnailUrl: expect.stringMatching(/^\/api\/attachments\/[0-9a-f-]{36}\/thumbnail\?exp=\d+&sig=[\w-]{43}$/),
      },
    });
    const { id, size, url, thumbnailUrl } = res.body.data;

    const file = await get(url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    expect(file.headers.get('content-disposition')).toMatch(/^inline; filename="lunch.jpg"/);
    const served = Buffer.from(await file.arrayBuffer());
    expect(served.length).toBe(size);
    const meta = await sharp(served).metadata();
    expect([meta.width, meta.height]).toEqual([20, 40]); // upright: the EXIF rotation is applied to the pixels
    expect(meta.orientation).toBeUndefined();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(served.includes('Exif')).toBe(false);
    expect(served.includes(CAMERA)).toBe(false);
    expect(served.equals(original)).toBe(false);

    // What storage holds is what was served: the original was never stored.
    const stored = await server.deps.storage.get(storageKey(id, 'file'));
    expect(Buffer.from(await new Response(stored!.body).arrayBuffer()).equals(served)).toBe(true);
    expect(filesOnDisk().sort()).toEqual([id, `${id}.thumb`].sort());

    const thumb = await get(thumbnailUrl);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const thumbMeta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect(thumbMeta.format).toBe('webp');
    expect(thumbMeta.exif).toBeUndefined();
  });

  it('takes PNG and WebP as themselves, and a PDF as it is, always served as a download', async () => {
    const p = await upload(alice.token, await png(), 'chart.png');
    expect(p.body.data).toMatchObject({ name: 'chart.png', contentType: 'image/png' });
    const w = await upload(alice.token, await webp(), 'plate');
    expect(w.body.data).toMatchObject({ name: 'plate', contentType: 'image/webp' });
    expect((await sharp(Buffer.from(await (await get(w.body.data.url)).arrayBuffer())).metadata()).format).toBe('webp');

    const pdf = tinyPdf('lab report');
    const d = await upload(alice.token, pdf, 'Lab report — जाँच.pdf');
    expect(d.status).toBe(201);
    expect(d.body.data).toMatchObject({
      name: 'Lab report — जाँच.pdf',
      contentType: 'application/pdf',
      size: pdf.length,
      thumbnailUrl: null,
    });
    const file = await get(d.body.data.url);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="Lab report _ ____.pdf"; filename*=UTF-8''${encodeURIComponent('Lab report — जाँच.pdf')}`,
    );
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);
  });

  it('refuses bad files with a clear 4xx and stores nothing', async () => {
    const mallory = await server.user();
    const before = filesOnDisk().length;
    const cases: [Uint8Array, string, number, RegExp][] = [
      [await png(), 'report.pdf', 400, /“report.pdf” is named like another kind of file, but it is a PNG image. Rename it to end in .png/],
      [
        Buffer.from('<!DOCTYPE html><html><script>alert(1)</script></html>'),
        'photo.jpg',
        415,
        /This file is an HTML page, which cannot be attached/,
      ],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'logo.png', 415, /an SVG image/],
      [Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'), 'logo.svg', 415, /an SVG image/],
      [new Uint8Array(0), 'empty.jpg', 400, /The file is empty \(0 bytes\)/],
      [Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]), 'broken.jpg', 400, /could not be read as one/],
      [Buffer.from('%PDF-1.4\n no end'), 'cut.pdf', 400, /not a whole one/],
      [Buffer.from('\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic'), 'IMG_0001.HEIC', 415, /HEIC photos cannot be read here yet/],
      [Buffer.from('just some text'), 'notes.txt', 415, /cannot be attached. Send a photo \(JPEG, PNG or WebP\) or a PDF/],
      [Buffer.concat([pdfOf(MAX_ATTACHMENT_BYTES + 1)]), 'big.pdf', 413, /The file is too large: at most 10 MB is accepted/],
    ];
    for (const [bytes, name, status, message] of cases) {
      const res = await upload(mallory.token, bytes, name);
      expect({ name, status: res.status }).toEqual({ name, status });
      expect(res.body.message).toMatch(message);
      expect(res.body.data.fieldErrors.file).toEqual([res.body.message]);
    }
    expect(await storedCount(mallory.id)).toBe(0);
    expect(filesOnDisk().length).toBe(before);
  });

  it('refuses a 12 MB photo from its declared length (413, the limit in the message)', async () => {
    const boundary = 'poshan-test-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Buffer.concat([head, Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(12 * 1024 * 1024), tail]);
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/api/attachments`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bob.token}`,
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
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      // The server answers and closes before taking the whole body: a write error after the answer is expected.
      req.on('error', (err) => (answered ? undefined : reject(err)));
      req.end(body);
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toEqual({ status: 413, message: 'The file is too large: at most 10 MB is accepted.' });
    expect(await storedCount(bob.id)).toBe(0);
  });

  it('asks for a session, a multipart form and one file in the field "file"', async () => {
    expect((await upload(undefined, await png(), 'a.png')).status).toBe(401);
    const json = await server.request('POST', '/api/attachments', { token: bob.token, body: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.message).toBe('Send the file as multipart/form-data, in a form field named "file".');
    const form = new FormData();
    form.append('photo', new Blob([await png()]), 'a.png');
    const wrongField = await fetch(`${server.url}/api/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bob.token}` },
      body: form,
    });
    expect(wrongField.status).toBe(400);
    expect(((await wrongField.json()) as any).message).toBe('Choose a file to upload (a form field named "file").');
  });
});

describe('GET /api/attachments/{id}', () => {
  let photo: { id: string; url: string; thumbnailUrl: string };
  beforeAll(async () => {
    photo = (await upload(alice.token, await png(), 'weight.png')).body.data;
  });

  it('serves the uploader while unused, any dietitian, and nobody else (403); an unknown id is 404', async () => {
    expect((await get(`/api/attachments/${photo.id}`, alice.token)).status).toBe(200);
    expect((await get(`/api/attachments/${photo.id}`, dietitian.token)).status).toBe(200);
    expect((await get(`/api/attachments/${photo.id}/thumbnail`, dietitian.token)).status).toBe(200);
    const other = await get(`/api/attachments/${photo.id}`, bob.token);
    expect(other.status).toBe(403);
    expect(await other.json()).toEqual({ status: 403, message: 'This file belongs to another client’s record.' });
    expect((await get(`/api/attachments/${randomUUID()}`, alice.token)).status).toBe(404);
    expect((await get('/api/attachments/not-a-uuid', alice.token)).status).toBe(404);
    const anonymous = await get(`/api/attachments/${photo.id}`);
    expect(anonymous.status).toBe(401);
  });

  it('opens for a signed link without a session, only as signed and only until it expires', async () => {
    expect((await get(photo.url)).status).toBe(200);
    const u = new URL(photo.url, server.url);
    const sig = u.searchParams.get('sig')!;
    const tampered = `${u.pathname}?exp=${u.searchParams.get('exp')}&sig=${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    expect((await get(tampered)).status).toBe(403);
    const later = `${u.pathname}?exp=${Number(u.searchParams.get('exp')) + 60}&sig=${sig}`;
    expect((await get(later)).status).toBe(403);
    const expired = await get(`${u.pathname}?exp=1000&sig=${sig}`);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as any).message).toBe('This link to a file has expired. Open the file again from the app.');
    // A thumbnail's signature does not open the file, nor one file's signature another file.
    const thumbQuery = new URL(photo.thumbnailUrl, server.url).search;
    expect((await get(`/api/attachments/${photo.id}${thumbQuery}`)).status).toBe(403);
    const another = (await upload((await server.user()).token, await png(), 'other.png')).body.data;
    expect((await get(`/api/attachments/${another.id}${u.search}`)).status).toBe(403);
    // A PDF has no thumbnail.
    const hari = await server.user();
    const pdf = (await upload(hari.token, tinyPdf(), 'x.pdf')).body.data;
    expect((await get(`/api/attachments/${pdf.id}/thumbnail`, hari.token)).status).toBe(404);
  });

  it('once claimed for a client’s record: that client and the dietitians, not another client', async () => {
    const byDietitian = (await upload(dietitian.token, await png(), 'plan-sketch.png')).body.data;
    expect((await get(`/api/attachments/${byDietitian.id}`, alice.token)).status).toBe(403);
    await server.deps.db
      .transaction()
      .execute((trx) => claimAttachments(trx, { uploaderId: dietitian.id, ids: [byDietitian.id], clientId: alice.id, use: 'message' }));
    expect((await get(`/api/attachments/${byDietitian.id}`, alice.token)).status).toBe(200);
    expect((await get(`/api/attachments/${byDietitian.id}`, dietitian.token)).status).toBe(200);
    expect((await get(`/api/attachments/${byDietitian.id}`, bob.token)).status).toBe(403);
  });
});

describe('claimAttachments and attachmentViews (the contract of messages, meals and documents)', () => {
  const claim = (args: Parameters<typeof claimAttachments>[1]) =>
    server.deps.db.transaction().execute((trx) => claimAttachments(trx, args));
  const refusal = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    return { code: (err as AppError).code, message: (err as AppError).message, fieldErrors: (err as AppError).fieldErrors };
  };

  it('claims the uploader’s own unused files in the caller’s transaction and answers their views in order', async () => {
    const carol = await server.user();
    const a = (await upload(carol.token, await png(), 'a.png')).body.data;
    const b = (await upload(carol.token, tinyPdf(), 'b.pdf')).body.data;
    const views = await claim({ uploaderId: carol.id, ids: [b.id, a.id], clientId: carol.id, use: 'meal' });
    expect(views.map((v) => [v.id, v.name, v.contentType])).toEqual([
      [b.id, 'b.pdf', 'application/pdf'],
      [a.id, 'a.png', 'image/png'],
    ]);
    expect(views[1]!.thumbnailUrl).toMatch(/\/thumbnail\?/);
    const row = await server.deps.db.selectFrom('attachments').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ client_id: carol.id, used_for: 'meal', claimed_at: expect.any(Date) });

    // A transaction that rolls back claims nothing.
    const c = (await upload(carol.token, await png(), 'c.png')).body.data;
    await expect(
      server.deps.db.transaction().execute(async (trx) => {
        await claimAttachments(trx, { uploaderId: carol.id, ids: [c.id], clientId: carol.id, use: 'message' });
        throw new Error('the message was not stored');
      }),
    ).rejects.toThrow('the message was not stored');
    expect((await claim({ uploaderId: carol.id, ids: [c.id], clientId: carol.id, use: 'message' })).length).toBe(1);

    const seen = await attachmentViews(server.deps.db, [a.id, b.id, c.id, randomUUID(), 'junk'], { id: carol.id, role: ROLE.client });
    expect([...seen.keys()].sort()).toEqual([a.id, b.id, c.id].sort());
    expect((await attachmentViews(server.deps.db, [a.id], { id: bob.id, role: ROLE.client })).size).toBe(0);
    expect((await attachmentViews(server.deps.db, [a.id], { id: dietitian.id, role: ROLE.admin })).get(a.id)?.name).toBe('a.png');
    expect((await get(seen.get(a.id)!.url)).status).toBe(200);
  });

  it('refuses (400 on attachmentIds) more than five, unknown ids, another person’s and used ones', async () => {
    const dave = await server.user();
    const mine = (await upload(dave.token, await png(), 'd.png')).body.data.id as string;
    const someoneElses = (await upload((await server.user()).token, await png(), 'e.png')).body.data.id as string;
    const six = Array.from({ length: 6 }, () => randomUUID());
    expect(await refusal(claim({ uploaderId: dave.id, ids: six, clientId: dave.id, use: 'message' }))).toEqual({
      code: 'BAD_REQUEST',
      message: 'At most 5 files can be attached at once.',
      fieldErrors: { attachmentIds: ['At most 5 files can be attached at once.'] },
    });
    for (const ids of [[randomUUID()], ['not-a-uuid'], [someoneElses], [mine, mine]]) {
      const r = await refusal(claim({ uploaderId: dave.id, ids, clientId: dave.id, use: 'message' }));
      expect(r.code).toBe('BAD_REQUEST');
      expect(r.fieldErrors?.attachmentIds).toEqual([r.message]);
    }
    await claim({ uploaderId: dave.id, ids: [mine], clientId: dave.id, use: 'message' });
    const used = await refusal(claim({ uploaderId: dave.id, ids: [mine], clientId: dave.id, use: 'document' }));
    expect(used.message).toBe('“d.png” is already attached elsewhere. Upload it again to send it here.');
  });
});

describe('upload limits (429 with Retry-After)', () => {
  it('counts uploads per person per minute', async () => {
    const erin = await server.user();
    for (let i = 0; i < 5; i++) expect((await upload(erin.token, await png(), `${i}.png`)).status).toBe(201);
    const refused = await upload(erin.token, await png(), '6.png');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too many uploads. Try again in 1 minute.');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await storedCount(erin.id)).toBe(5);
    // Another person is not held back by Erin's uploads.
    expect((await upload(bob.token, await png(), 'b.png')).status).toBe(201);
  });

  it('counts the bytes a person uploads in 24 hours', async () => {
    const frank = await server.user();
    expect((await upload(frank.token, pdfOf(6 * 1024 * 1024), 'one.pdf')).status).toBe(201);
    const refused = await upload(frank.token, pdfOf(6 * 1024 * 1024), 'two.pdf');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('You have uploaded the most we take in a day (10 MB in 24 hours). Try again in 24 hours.');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    expect(await storedCount(frank.id)).toBe(1);
    // What still fits is taken.
    expect((await upload(frank.token, pdfOf(3 * 1024 * 1024), 'three.pdf')).status).toBe(201);
  });
});

describe('unused uploads', () => {
  it('are deleted with their files a day later by the job queue; used ones stay', async () => {
    const gina = await server.user();
    const unused = (await upload(gina.token, await png(), 'unused.png')).body.data.id as string;
    const used = (await upload(gina.token, await png(), 'used.png')).body.data.id as string;
    const fresh = (await upload(gina.token, await png(), 'fresh.png')).body.data.id as string;
    await server.deps.db
      .transaction()
      .execute((trx) => claimAttachments(trx, { uploaderId: gina.id, ids: [used], clientId: gina.id, use: 'message' }));
    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    // The moment of upload is never updated by the app: the test moves it back by hand.
    await sql`update attachments set created_at = ${dayAgo} where id in (${unused}, ${used})`.execute(server.deps.db);
    // An old upload cannot be claimed any more, so the cleanup never races a message.
    const late = await server.deps.db
      .transaction()
      .execute((trx) => claimAttachments(trx, { uploaderId: gina.id, ids: [unused], clientId: gina.id, use: 'message' }))
      .catch((e: AppError) => e.message);
    expect(late).toBe('“unused.png” was uploaded more than a day ago and has expired. Upload it again.');

    await server.deps.jobs.send(CLEANUP_JOB);
    await expect
      .poll(async () => (await server.deps.db.selectFrom('attachments').select('id').where('id', '=', unused).execute()).length, {
        timeout: 45_000,
        interval: 200,
      })
      .toBe(0);
    expect(await server.deps.storage.get(storageKey(unused, 'file'))).toBeNull();
    expect(await server.deps.storage.get(storageKey(unused, 'thumbnail'))).toBeNull();
    expect(filesOnDisk()).not.toContain(unused);
    for (const kept of [used, fresh]) expect(await server.deps.storage.get(storageKey(kept, 'file'))).not.toBeNull();
    expect((await get(`/api/attachments/${unused}`, gina.token)).status).toBe(404);
  });
});

describe('more than one instance', () => {
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'refuses a second instance whose files are in another folder, and lets one on the same folder start',
    async () => {
      const url = (server.deps.dbHandle as { url?: string }).url!;
      const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'poshan-elsewhere-'));
      try {
        await expect(holdLocalFilesLock(url, path.join(elsewhere, 'files'), server.deps.logger)).rejects.toThrow(LocalFilesElsewhereError);
        await expect(holdLocalFilesLock(url, path.join(elsewhere, 'files'), server.deps.logger)).rejects.toThrow(
          /More than one instance needs S3-compatible storage: set S3_BUCKET/,
        );
        const same = await holdLocalFilesLock(url, path.join(dataDir, 'files'), server.deps.logger);
        await same.release();
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
    },
  );
});

describe('with S3-compatible storage', () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let s3Server: TestServer;
  beforeAll(async () => {
    s3 = await startS3Server('poshan-uploads');
    s3Server = await startTestServer(s3.env);
  });
  afterAll(async () => {
    await s3Server?.stop();
    await s3?.stop();
  });

  it('stores uploads in the bucket and serves them through the same links', async () => {
    expect(s3Server.deps.storage.kind).toBe('s3');
    const user = await s3Server.user();
    const form = new FormData();
    form.append('file', new Blob([await photoWithGps()]), 'meal.jpeg');
    const res = await fetch(`${s3Server.url}/api/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
      body: form,
    });
    expect(res.status).toBe(201);
    const view = ((await res.json()) as any).data;
    const file = await fetch(new URL(view.url, s3Server.url));
    expect(file.status).toBe(200);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.length).toBe(view.size);
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    expect((await fetch(new URL(view.thumbnailUrl, s3Server.url))).headers.get('content-type')).toBe('image/webp');
    expect(await s3Server.deps.storage.get(storageKey(view.id, 'file'))).not.toBeNull();
  });
});
