import { createTRPCClient, httpLink } from '@trpc/client';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../server/time.js';
import { createDietPlan, EXPIRED_LINK_MESSAGE, INVALID_LINK_MESSAGE } from '../../server/diet-plan/service.js';
import { PDF_LINK_TTL_SECONDS, signPdfLink } from '../../server/diet-plan/signed-url.js';
import { renderDietPlanPdf } from '../../server/pdf/diet-plan.js';
import type { AppRouter } from '../../server/trpc/root.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let admin: TestUser;
let pdf: Uint8Array;
let bobsPlanId: number;

const ALICE_PLANS = 27;
/** Alice's plans start a week apart from 2026-01-05; newest first is from the last one back. */
const aliceFrom = (i: number) => addDays('2026-01-05', 7 * i);

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob, carol, admin] = await Promise.all([
    server.user({ firstName: 'Alice', lastName: 'Rao' }),
    server.user({ firstName: 'Bob', lastName: 'Shah' }),
    server.user(),
    server.user({ role: 'admin' }),
  ]);
  pdf = await renderDietPlanPdf({
    title: 'Test plan',
    from: '2026-01-05',
    to: '2026-02-01',
    clientName: 'Alice Rao',
    dietitian: { firstName: 'Test', lastName: 'Dietitian' },
    days: [
      {
        label: 'Monday',
        meals: [{ time: '08:00', name: 'Breakfast', items: [{ food: 'Idli', portion: { quantity: 3, unit: 'piece', grams: 120 } }] }],
      },
    ],
  });
  // Inserted out of date order, so "newest first" is the query's doing.
  const order = Array.from({ length: ALICE_PLANS }, (_, i) => i).sort((a, b) => ((a * 7) % ALICE_PLANS) - ((b * 7) % ALICE_PLANS));
  for (const i of order) {
    await createDietPlan(server.deps.db, {
      clientId: alice.id,
      title: `Week ${i + 1}`,
      from: aliceFrom(i),
      to: addDays(aliceFrom(i), 6),
      pdf,
      createdBy: admin.id,
    });
  }
  bobsPlanId = (await createDietPlan(server.deps.db, { clientId: bob.id, title: 'Bob', from: '2026-03-01', to: '2026-03-28', pdf })).id;
});
afterAll(() => server?.stop());

type Row = { id: number; title: string; from: string; to: string; pdfURL: string };
const list = (token: string | undefined, query = '') => server.request('GET', `/api/diet-plan/get-diet-plan${query}`, { token });
const download = (pdfURL: string, headers: Record<string, string> = {}) => fetch(new URL(pdfURL, server.url), { headers });

describe('GET /api/diet-plan/get-diet-plan', () => {
  it('answers the first 10 plans, newest first, with the total count beside data', async () => {
    const res = await list(alice.token, `?user=${alice.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['count', 'data', 'message', 'status']);
    expect(res.body).toMatchObject({ status: 200, message: 'Diet plans loaded', count: ALICE_PLANS });
    const rows: Row[] = res.body.data;
    expect(rows).toHaveLength(10);
    expect(rows.map((r) => r.from)).toEqual(Array.from({ length: 10 }, (_, i) => aliceFrom(ALICE_PLANS - 1 - i)));
    expect(rows[0]).toEqual({
      id: expect.any(Number),
      title: `Week ${ALICE_PLANS}`,
      from: aliceFrom(ALICE_PLANS - 1),
      to: addDays(aliceFrom(ALICE_PLANS - 1), 6),
      pdfURL: expect.stringMatching(new RegExp(`^/api/diet-plan/pdf/${rows[0]!.id}\\?exp=\\d+&sig=[\\w-]{43}$`)),
    });
  });

  it('pages with zero-based page numbers; the pages together hold every plan once', async () => {
    const pages = await Promise.all([0, 1, 2, 3].map((page) => list(alice.token, `?page=${page}&count=10`)));
    expect(pages.map((p) => p.body.data.length)).toEqual([10, 10, 7, 0]);
    expect(pages.every((p) => p.body.count === ALICE_PLANS)).toBe(true);
    const froms = pages.flatMap((p) => p.body.data.map((r: Row) => r.from));
    expect(froms).toEqual(Array.from({ length: ALICE_PLANS }, (_, i) => aliceFrom(ALICE_PLANS - 1 - i)));
    expect(new Set(pages.flatMap((p) => p.body.data.map((r: Row) => r.id))).size).toBe(ALICE_PLANS);
  });

  it.each([
    [25, 0, 25],
    [25, 1, 2],
    [50, 0, 27],
    [100, 0, 27],
  ])('count=%i page=%i gives %i rows', async (count, page, rows) => {
    const res = await list(alice.token, `?count=${count}&page=${page}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(rows);
    expect(res.body.count).toBe(ALICE_PLANS);
  });

  it('treats empty page and count as the defaults (page 0, 10 rows)', async () => {
    const res = await list(alice.token, '?page=&count=');
    expect(res.body.data).toHaveLength(10);
  });

  it('answers an empty list with count 0 for a client without plans', async () => {
    const res = await list(carol.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: [], count: 0 });
  });

  it.each([
    ['?count=7', 'count must be one of 10, 25, 50, 100', 'count'],
    ['?count=ten', 'count must be one of 10, 25, 50, 100', 'count'],
    ['?page=-1', 'page must be 0 or more (pages start at 0)', 'page'],
    ['?page=1.5', 'page must be a whole number', 'page'],
    ['?page=first', 'page must be a number', 'page'],
    ['?user=me', 'user must be a number', 'user'],
  ])('refuses %s with 400 "%s"', async (query, message, field) => {
    const res = await list(alice.token, query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, message });
    expect(res.body.data.fieldErrors[field]).toContain(message);
  });

  it('needs a session (401) and refuses another client’s id (403)', async () => {
    const anonymous = await list(undefined);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.status).toBe(401);
    const other = await list(alice.token, `?user=${bob.id}`);
    expect(other.status).toBe(403);
    expect(other.body.message).toBe('You can only access your own data.');
  });

  it('lets an admin list any client’s plans, and asks which client', async () => {
    const res = await list(admin.token, `?user=${bob.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 1, data: [{ id: bobsPlanId, from: '2026-03-01', to: '2026-03-28' }] });
    const missing = await list(admin.token);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('user is required');
    const unknown = await list(admin.token, '?user=999999');
    expect(unknown.status).toBe(404);
  });

  it('is the same procedure over tRPC (dietPlan.list)', async () => {
    const trpc = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${server.url}/trpc`, transformer: superjson, headers: { authorization: `Bearer ${bob.token}` } })],
    });
    const answer = await trpc.dietPlan.list.query({ page: 0, count: 25 });
    expect(answer).toEqual({ count: 1, data: [expect.objectContaining({ id: bobsPlanId, from: '2026-03-01' })] });
    await expect(trpc.dietPlan.list.query({ count: 30 as 25 })).rejects.toMatchObject({ message: 'count must be one of 10, 25, 50, 100' });
  });
});

describe('GET /api/diet-plan/pdf/:id (signed link)', () => {
  const firstRow = async (user: TestUser): Promise<Row> => (await list(user.token)).body.data[0];

  it('opens the PDF without any token, inline, named by its dates, never cached', async () => {
    const row = await firstRow(bob);
    const res = await download(row.pdfURL);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="diet-plan-2026-03-01-to-2026-03-28.pdf"');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(Buffer.from(bytes).equals(Buffer.from(pdf))).toBe(true);
    expect(res.headers.get('content-length')).toBe(String(pdf.byteLength));
  });

  it('refuses the same signature on another plan id (403)', async () => {
    const bobs = await firstRow(bob);
    const alices = await firstRow(alice);
    const swapped = bobs.pdfURL.replace(`/pdf/${bobs.id}?`, `/pdf/${alices.id}?`);
    const res = await download(swapped);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ status: 403, message: INVALID_LINK_MESSAGE });
  });

  it('refuses an expired link (403) with a message saying so', async () => {
    const stale = signPdfLink(
      server.deps.secret,
      { id: bobsPlanId, clientId: bob.id },
      { now: Date.now() - (PDF_LINK_TTL_SECONDS + 5) * 1000 },
    );
    const res = await download(stale);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ status: 403, message: EXPIRED_LINK_MESSAGE });
  });

  it('refuses altered, incomplete, forged and unknown links alike (403)', async () => {
    const row = await firstRow(bob);
    const url = new URL(row.pdfURL, server.url);
    const exp = Number(url.searchParams.get('exp'));
    const variants = [
      `${url.pathname}?exp=${exp - 1}&sig=${url.searchParams.get('sig')}`,
      `${url.pathname}?exp=${exp}`,
      url.pathname,
      `${url.pathname}?exp=${exp}&sig=${'A'.repeat(43)}`,
      // Signed with the right secret but for the wrong owner: a link for Bob's plan claiming to be Alice's.
      signPdfLink(server.deps.secret, { id: bobsPlanId, clientId: alice.id }),
      signPdfLink(server.deps.secret, { id: 987654, clientId: bob.id }),
      '/api/diet-plan/pdf/not-a-number?exp=1&sig=x',
    ];
    for (const variant of variants) {
      const res = await download(variant);
      expect(res.status, variant).toBe(403);
      expect((await res.json()).message).toBe(INVALID_LINK_MESSAGE);
    }
  });

  it('ignores a bearer token: the signature alone decides', async () => {
    const bobs = await firstRow(bob);
    const alices = await firstRow(alice);
    const swapped = bobs.pdfURL.replace(`/pdf/${bobs.id}?`, `/pdf/${alices.id}?`);
    expect((await download(swapped, { authorization: `Bearer ${bob.token}` })).status).toBe(403);
  });
});

describe('createDietPlan', () => {
  const valid = () => ({ clientId: carol.id, title: 'Phase 1', from: '2026-05-01', to: '2026-05-28', pdf, createdBy: admin.id });
  const withPdfBytes = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

  it('stores a plan the client then sees', async () => {
    const created = await createDietPlan(server.deps.db, valid());
    expect(created).toEqual({
      id: expect.any(Number),
      clientId: carol.id,
      title: 'Phase 1',
      from: '2026-05-01',
      to: '2026-05-28',
      bytes: pdf.byteLength,
    });
    const res = await list(carol.token);
    expect(res.body.data.map((r: Row) => r.id)).toContain(created.id);
  });

  it.each([
    [
      'a file that is not a PDF',
      { pdf: withPdfBytes('<html>plan</html>') },
      'The diet plan must be a PDF file (this file is not a PDF).',
      'pdf',
    ],
    ['an empty file', { pdf: new Uint8Array() }, 'The PDF file is empty.', 'pdf'],
    [
      'a PDF cut short',
      { pdf: withPdfBytes('%PDF-1.7\n1 0 obj << >> endobj\n') },
      'The PDF looks incomplete (it has no end-of-file marker). Please export or upload it again.',
      'pdf',
    ],
    ['an end before the start', { from: '2026-05-28', to: '2026-05-01' }, 'The end date cannot be before the start date', 'to'],
    ['an impossible date', { from: '2026-02-30' }, 'Use a real date in the form YYYY-MM-DD', 'from'],
    ['a blank title', { title: '  ' }, 'Title is required', 'title'],
  ])('refuses %s with a 400', async (_case, change, message, field) => {
    await expect(createDietPlan(server.deps.db, { ...valid(), ...change })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message,
      fieldErrors: { [field]: [message] },
    });
  });

  it('refuses a PDF over 10 MB, saying how big it is', async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(withPdfBytes('%PDF-1.7'));
    big.set(withPdfBytes('%%EOF\n'), big.length - 6);
    await expect(createDietPlan(server.deps.db, { ...valid(), pdf: big })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'The PDF must be at most 10 MB (this one is 10.1 MB).',
    });
  });

  it('refuses a client that does not exist, or an account that is not a client, with the one 404', async () => {
    for (const clientId of [999999, admin.id]) {
      await expect(createDietPlan(server.deps.db, { ...valid(), clientId })).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: 'That client does not exist.',
      });
    }
  });
});
