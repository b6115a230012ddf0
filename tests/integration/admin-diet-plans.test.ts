import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComposedDietPlanInput } from '../../server/diet-plan/schema.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { callerFor, failure } from '../helpers/callers.js';
import { base64, pdfText, tinyPdf } from '../helpers/pdf.js';

let server: TestServer;
let admin: TestUser;
let client: TestUser;
let console_: Awaited<ReturnType<typeof callerFor>>;

beforeAll(async () => {
  server = await startTestServer();
  [admin, client] = await Promise.all([
    server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' }),
    server.user({ firstName: 'Kavya', lastName: 'Menon' }),
  ]);
  console_ = await callerFor(server, admin.token);
});
afterAll(() => server?.stop());

const week = (breakfast: string): ComposedDietPlanInput => ({
  title: 'PCOD reset, week 1',
  from: '2026-12-01',
  to: '2026-12-07',
  days: [
    {
      label: 'Monday',
      meals: [
        { time: '07:30', name: 'Breakfast', items: [{ food: breakfast, portion: { quantity: 1, unit: 'katori', grams: 150 } }] },
        {
          time: '13:00',
          name: 'Lunch',
          items: [
            { food: 'Phulka', portion: { quantity: 2, unit: 'roti', grams: 60 } },
            { food: 'Moong dal', portion: { quantity: 1, unit: 'katori', grams: 150 } },
          ],
          notes: 'Add a bowl of salad first',
        },
      ],
    },
    // A day for each day of the week it covers (fewer ask the dietitian to confirm).
    ...['Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((label) => ({
      label,
      meals: [
        { time: '08:00', name: 'Breakfast', items: [{ food: 'Buttermilk', portion: { quantity: 1, unit: 'glass' as const, ml: 250 } }] },
      ],
    })),
  ],
  guidelines: ['Drink 2.5 litres of water a day'],
});

/** What the client's My Diet Plans page lists, and the PDF behind its link. */
async function clientsView() {
  const asClient = await callerFor(server, client.token);
  const list = await asClient.dietPlan.list({ page: 0, count: 10 });
  const pdfs = await Promise.all(
    list.data.map(async (row) => {
      const res = await fetch(new URL(row.pdfURL, server.url));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      return new Uint8Array(await res.arrayBuffer());
    }),
  );
  return { list, pdfs };
}

const trail = (id: number) =>
  server.deps.db
    .selectFrom('audit_log')
    .select(['action', 'actor_id'])
    .where('entity', '=', 'diet_plan')
    .where('entity_id', '=', id)
    .orderBy('id')
    .execute();

describe('composed plans', () => {
  let planId: number;

  it('renders days × meals into a branded PDF the client downloads', async () => {
    const saved = await console_.admin.dietPlans.compose({ clientId: client.id, plan: week('Vegetable poha') });
    expect(saved).toMatchObject({ version: 1, message: '"PCOD reset, week 1" was rendered to PDF and is now in the client’s diet plans.' });
    planId = saved.id;

    const { list, pdfs } = await clientsView();
    expect(list.data).toEqual([expect.objectContaining({ id: planId, from: '2026-12-01', to: '2026-12-07' })]);
    const text = pdfText(pdfs[0]!);
    for (const expected of [
      'Poshan',
      'Kavya Menon',
      'Meera Iyer',
      'Vegetable poha',
      '1 katori (150 g)',
      '2 rotis (60 g)',
      'Buttermilk',
      '1 glass (250 ml)',
      'Monday',
      'Tuesday',
    ]) {
      expect(text).toContain(expected);
    }
    expect(await trail(planId)).toEqual([{ action: 'diet_plan.composed', actor_id: admin.id }]);
  });

  it('keeps the composed content for editing', async () => {
    const plan = await console_.admin.dietPlans.get({ id: planId });
    expect(plan).toMatchObject({
      source: 'composed',
      version: 1,
      client: { id: client.id, fullName: 'Kavya Menon' },
      title: 'PCOD reset, week 1',
    });
    expect(plan.content?.days[0]?.meals[0]?.items[0]?.food).toBe('Vegetable poha');
    expect(plan.versions).toEqual([expect.objectContaining({ version: 1, current: true, createdBy: 'Meera Iyer' })]);
    expect(plan.pdfURL).toMatch(new RegExp(`/api/diet-plan/pdf/${planId}\\?exp=\\d+&sig=`));
  });

  it('editing makes a new version; the client sees only the latest, earlier versions stay readable', async () => {
    const edited = { ...week('Besan chilla'), from: '2026-12-02', to: '2026-12-08' };
    const saved = await console_.admin.dietPlans.revise({ source: 'composed', id: planId, expectedVersion: 1, plan: edited });
    expect(saved).toMatchObject({ id: planId, version: 2, message: 'Version 2 saved: the client now sees it.' });

    const { list, pdfs } = await clientsView();
    expect(list.count).toBe(1);
    expect(list.data[0]).toMatchObject({ id: planId, from: '2026-12-02', to: '2026-12-08' });
    expect(pdfText(pdfs[0]!)).toContain('Besan chilla');
    expect(pdfText(pdfs[0]!)).not.toContain('Vegetable poha');

    const plan = await console_.admin.dietPlans.get({ id: planId });
    expect(plan.versions.map((v) => [v.version, v.current, v.from])).toEqual([
      [2, true, '2026-12-02'],
      [1, false, '2026-12-01'],
    ]);
    const first = await console_.admin.dietPlans.versionPdf({ id: planId, version: 1 });
    expect(pdfText(Buffer.from(first.base64, 'base64'))).toContain('Vegetable poha');
    expect(first.filename).toBe(`diet-plan-${planId}-v1-2026-12-01-to-2026-12-07.pdf`);
    expect((await trail(planId)).map((a) => a.action)).toEqual(['diet_plan.composed', 'diet_plan.revised']);

    // The client is mailed for the new plan and for the new version.
    const mails = await server.deps.db
      .selectFrom('outbox')
      .select(['subject', 'body_text', 'body_html'])
      .where('to_address', '=', client.email)
      .orderBy('id', 'asc')
      .execute();
    expect(mails.map((m) => m.subject)).toEqual(
      expect.arrayContaining(['Your new diet plan "PCOD reset, week 1" is ready', 'Your diet plan "PCOD reset, week 1" was updated']),
    );
    const updated = mails.find((m) => m.subject.endsWith('was updated'))!;
    expect(updated.body_text).toContain('Version 2 replaces the one you had.');
    expect(updated.body_text).toContain('For: 2 Dec 2026 – 8 Dec 2026');
    expect(updated.body_html).toContain('/dashboard/diet-plan');
  });

  it('refuses an edit made from an outdated version instead of overwriting', async () => {
    const err = await failure(console_.admin.dietPlans.revise({ source: 'composed', id: planId, expectedVersion: 1, plan: week('Idli') }));
    expect(err.code).toBe('CONFLICT');
    expect(err.message).toContain('it is now version 2');
    expect((await console_.admin.dietPlans.get({ id: planId })).version).toBe(2);
  });

  it('asks for a file when a composed plan is switched to an upload', async () => {
    const err = await failure(
      console_.admin.dietPlans.revise({
        source: 'upload',
        id: planId,
        expectedVersion: 2,
        title: 'Scanned',
        from: '2026-12-02',
        to: '2026-12-08',
      }),
    );
    expect(err.message).toBe('Choose a PDF file to upload: this plan is composed, so there is no uploaded PDF to keep.');
  });

  it('previews without saving', async () => {
    const before = await console_.admin.dietPlans.list({ clientId: client.id });
    const preview = await console_.admin.dietPlans.preview({ clientId: client.id, plan: week('Upma') });
    expect(pdfText(Buffer.from(preview.base64, 'base64'))).toContain('Upma');
    expect((await console_.admin.dietPlans.list({ clientId: client.id })).total).toBe(before.total);
  });

  it('names the first problem of an incomplete plan', async () => {
    const res = await server.request('POST', '/trpc/admin.dietPlans.compose', {
      token: admin.token,
      body: { json: { clientId: client.id, plan: { ...week('Poha'), days: [{ label: 'Monday', meals: [] }] } } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.json.message).toBe('Add at least one meal to each day');
  });
});

describe('uploaded plans', () => {
  it('stores a PDF checked by its content', async () => {
    const saved = await console_.admin.dietPlans.upload({
      clientId: client.id,
      title: 'Festive guide',
      from: '2026-12-20',
      to: '2026-12-31',
      pdfBase64: base64(tinyPdf('festive')),
    });
    expect(saved.version).toBe(1);
    const { list, pdfs } = await clientsView();
    expect(list.data[0]).toMatchObject({ id: saved.id, from: '2026-12-20' });
    expect(Buffer.from(pdfs[0]!).toString('latin1')).toContain('% festive');

    const replaced = await console_.admin.dietPlans.revise({
      source: 'upload',
      id: saved.id,
      expectedVersion: 1,
      title: 'Festive guide',
      from: '2026-12-21',
      to: '2026-12-31',
    });
    expect(replaced.version).toBe(2);
    const again = await clientsView();
    expect(again.list.data[0]).toMatchObject({ id: saved.id, from: '2026-12-21' });
    expect(Buffer.from(again.pdfs[0]!).toString('latin1')).toContain('% festive');
  });

  it.each([
    [
      'a file that is not a PDF',
      base64(new TextEncoder().encode('GIF89a not a pdf')),
      'The diet plan must be a PDF file (this file is not a PDF).',
    ],
    [
      'a PDF cut short',
      base64(new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\n')),
      'The PDF looks incomplete (it has no end-of-file marker). Please export or upload it again.',
    ],
    ['an empty file', '', 'Choose a PDF file to upload'],
    ['a file over 10 MB', 'A'.repeat(14_000_000), 'The PDF must be at most 10 MB'],
  ])('refuses %s with a clear message', async (_label, pdfBase64, message) => {
    const err = await failure(
      console_.admin.dietPlans.upload({ clientId: client.id, title: 'Plan', from: '2026-12-01', to: '2026-12-02', pdfBase64 }),
    );
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toBe(message);
  });

  it('takes a PDF just under 10 MB over HTTP, as the console sends it', async () => {
    const head = '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n%';
    const tail = '\ntrailer <</Root 1 0 R>>\n%%EOF\n';
    const size = 10 * 1024 * 1024 - 1024;
    const big = Buffer.alloc(size, 'x');
    big.write(head, 0, 'latin1');
    big.write(tail, size - tail.length, 'latin1');
    const res = await server.request('POST', '/trpc/admin.dietPlans.upload', {
      token: admin.token,
      body: { json: { clientId: client.id, title: 'Big scan', from: '2027-06-01', to: '2027-06-02', pdfBase64: big.toString('base64') } },
    });
    expect(res.status).toBe(200);
    const id = res.body.result.data.json.id as number;
    const stored = await server.deps.db.selectFrom('diet_plans').select('pdf_bytes').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.pdf_bytes).toBe(size);
    await console_.admin.dietPlans.remove({ id });
  });

  it('refuses dates the wrong way round and an unknown client', async () => {
    const pdfBase64 = base64(tinyPdf());
    expect(
      (await failure(console_.admin.dietPlans.upload({ clientId: client.id, title: 'P', from: '2026-12-05', to: '2026-12-01', pdfBase64 })))
        .message,
    ).toBe('The end date cannot be before the start date');
    expect(
      (await failure(console_.admin.dietPlans.upload({ clientId: 999_999, title: 'P', from: '2026-12-01', to: '2026-12-05', pdfBase64 })))
        .message,
    ).toBe('That client does not exist.');
  });

  it('lists every plan paged, newest first, and deletes one with its versions', async () => {
    const all = await console_.admin.dietPlans.list({ pageSize: 10 });
    expect(all.total).toBe(2);
    expect(all.items.map((p) => p.title)).toEqual(['Festive guide', 'PCOD reset, week 1']);
    const festive = all.items[0]!;
    expect(festive).toMatchObject({ version: 2, source: 'upload', client: { fullName: 'Kavya Menon' } });

    const res = await console_.admin.dietPlans.remove({ id: festive.id });
    expect(res.message).toBe('"Festive guide" was deleted with all its versions.');
    expect((await console_.admin.dietPlans.list({})).total).toBe(1);
    const archived = await server.deps.db.selectFrom('diet_plan_versions').select('version').where('plan_id', '=', festive.id).execute();
    expect(archived).toEqual([]);
    expect((await trail(festive.id)).map((a) => a.action)).toEqual(['diet_plan.uploaded', 'diet_plan.revised', 'diet_plan.deleted']);
  });
});

describe('plans that look like a mistake', () => {
  let priya: TestUser;
  const oneDay = (from: string, to: string): ComposedDietPlanInput => ({
    title: 'Reset day',
    from,
    to,
    days: [
      {
        label: 'Every day',
        meals: [
          {
            time: '13:00',
            name: 'Lunch',
            // Household measures only: the katori and the roti are the portion, grams are optional.
            items: [
              { food: 'Phulka', portion: { quantity: 2, unit: 'roti' } },
              { food: 'Moong dal', portion: { quantity: 1, unit: 'katori' } },
            ],
          },
        ],
      },
    ],
  });
  const plansOf = (clientId: number) =>
    server.deps.db.selectFrom('diet_plans').select(['id', 'title', 'from_date']).where('client_id', '=', clientId).orderBy('id').execute();

  beforeAll(async () => {
    priya = await server.user({ firstName: 'Priya', lastName: 'Nair' });
  });

  it('takes portions in household measures without grams, and prints them so', async () => {
    const saved = await console_.admin.dietPlans.compose({ clientId: priya.id, plan: oneDay('2027-02-01', '2027-02-01') });
    const stored = await server.deps.db.selectFrom('diet_plans').select('pdf_data').where('id', '=', saved.id).executeTakeFirstOrThrow();
    const text = pdfText(stored.pdf_data);
    expect(text).toContain('2 rotis');
    expect(text).toContain('1 katori');
    expect(text).not.toContain(' g)');
    await console_.admin.dietPlans.remove({ id: saved.id });
  });

  it('holds back a one-day plan for a seven-day period until the dietitian confirms it (409 with the reason)', async () => {
    const res = await server.request('POST', '/trpc/admin.dietPlans.compose', {
      token: admin.token,
      body: { json: { clientId: priya.id, plan: oneDay('2027-03-01', '2027-03-07') } },
    });
    expect(res.status).toBe(409);
    const reason =
      'This plan lists 1 day for a 7-day period (1 Mar 2027 – 7 Mar 2027): add the missing days or shorten the dates, unless the client is meant to repeat it.';
    expect(res.body.error.json.message).toBe(`${reason} Confirm to save it anyway.`);
    expect(res.body.error.json.data.fieldErrors).toEqual({ acknowledgeWarnings: [reason] });
    expect(await plansOf(priya.id)).toEqual([]);

    const saved = await console_.admin.dietPlans.compose({
      clientId: priya.id,
      plan: oneDay('2027-03-01', '2027-03-07'),
      acknowledgeWarnings: true,
    });
    expect(saved.version).toBe(1);
    expect((await plansOf(priya.id)).map((p) => p.id)).toEqual([saved.id]);
  });

  it('holds back a plan over the client’s existing plan, composed or uploaded, naming it', async () => {
    const reason = 'These dates overlap the client’s plan “Reset day” (1 Mar 2027 – 7 Mar 2027): the client will see both for those days.';
    const composed = await failure(
      console_.admin.dietPlans.compose({ clientId: priya.id, plan: { ...week('Poha'), from: '2027-03-05', to: '2027-03-11' } }),
    );
    expect(composed.code).toBe('CONFLICT');
    expect(composed.fieldErrors).toEqual({ acknowledgeWarnings: [reason] });
    const uploaded = await failure(
      console_.admin.dietPlans.upload({
        clientId: priya.id,
        title: 'Scan',
        from: '2027-02-20',
        to: '2027-03-01',
        pdfBase64: base64(tinyPdf()),
      }),
    );
    expect(uploaded.fieldErrors).toEqual({ acknowledgeWarnings: [reason] });
    expect(await plansOf(priya.id)).toHaveLength(1);

    // Both reasons at once, each on its own.
    const both = await failure(console_.admin.dietPlans.compose({ clientId: priya.id, plan: oneDay('2027-03-07', '2027-03-13') }));
    expect(both.fieldErrors?.acknowledgeWarnings).toHaveLength(2);

    // The day after the existing plan ends is no overlap; another client's plans never count.
    const next = await console_.admin.dietPlans.compose({
      clientId: priya.id,
      plan: { ...week('Poha'), from: '2027-03-08', to: '2027-03-14' },
    });
    expect(next.version).toBe(1);
    const saved = await console_.admin.dietPlans.upload({
      clientId: priya.id,
      title: 'Scan',
      from: '2027-02-20',
      to: '2027-03-01',
      pdfBase64: base64(tinyPdf()),
      acknowledgeWarnings: true,
    });
    expect(saved.version).toBe(1);
  });

  it('asks again on an edit only for what the edit changes', async () => {
    const [reset] = await plansOf(priya.id);
    // Same dates, same single day: confirmed once already, not asked again.
    const same = await console_.admin.dietPlans.revise({
      source: 'composed',
      id: reset!.id,
      expectedVersion: 1,
      plan: oneDay('2027-03-01', '2027-03-07'),
    });
    expect(same.version).toBe(2);
    // Moved onto the next plan: asked about that plan (itself never counts).
    const moved = await failure(
      console_.admin.dietPlans.revise({
        source: 'composed',
        id: reset!.id,
        expectedVersion: 2,
        plan: { ...week('Poha'), from: '2027-03-01', to: '2027-03-08' },
      }),
    );
    expect(moved.code).toBe('CONFLICT');
    expect(moved.fieldErrors?.acknowledgeWarnings).toEqual([
      'These dates overlap the client’s plans “Scan” (20 Feb 2027 – 1 Mar 2027), “PCOD reset, week 1” (8 Mar 2027 – 14 Mar 2027): the client will see both for those days.',
    ]);
  });
});
