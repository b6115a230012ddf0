import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceDay } from '../../server/time.js';
import { callerFor, failure } from '../helpers/callers.js';
import { pdfText } from '../helpers/pdf.js';
import { startSecondInstance, startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * Payments through the REST paths: numbering across instances,
 * GST splits, UPI claims with UTRs, confirmation that starts the plan in the
 * same transaction, voids, PDFs behind signed links, the audit trail, mail
 * and the `invoices` NOTIFY seam.
 */
let server: TestServer;
let admin: TestUser;
let asha: TestUser;
let ravi: TestUser;

const SETTINGS = {
  legalName: 'Poshan Nutrition LLP',
  address: '12 MG Road\nPune 411001',
  stateCode: '27',
  gstin: '27ABCDE1234F1Z5',
  sacCode: '999319',
  taxRateBp: 1800,
  upiVpa: 'poshan@okaxis',
  payeeName: 'Poshan Nutrition',
  invoicePrefix: 'PSN',
} as const;
const notified: Array<{ invoiceId: number; clientId: number }> = [];

beforeAll(async () => {
  server = await startTestServer();
  [admin, asha, ravi] = await Promise.all([
    server.user({ role: 'admin', firstName: 'Meera' }),
    server.user({ firstName: 'Asha', lastName: 'राव' }),
    server.user({ firstName: 'Ravi' }),
  ]);
  await server.deps.dbHandle.listen('invoices', (payload) => notified.push(JSON.parse(payload)));
});
afterAll(() => server?.stop());

const issue = (body: Record<string, unknown>, base = server.url, token = admin.token) =>
  fetch(`${base}/api/invoices`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ clientRequestId: randomUUID(), ...body }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
const post = (path: string, token: string, body?: unknown) => server.request('POST', path, { token, body });
const auditOf = (id: number) =>
  server.deps.db
    .selectFrom('audit_log')
    .select(['action', 'actor_id'])
    .where('entity', '=', 'invoice')
    .where('entity_id', '=', id)
    .orderBy('id')
    .execute();

describe('before the billing details are set', () => {
  it('refuses to issue an invoice, saying what to do (409)', async () => {
    const res = await issue({ clientId: asha.id, lines: [{ description: 'Consultation', unitPaise: 50_000 }] });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/billing details/);
  });

  it('checks the details: a GSTIN of another state, a bad UPI id', async () => {
    const caller = await callerFor(server, admin.token);
    const bad = await failure(caller.admin.payments.saveSettings({ ...SETTINGS, gstin: '29ABCDE1234F1Z5', upiVpa: 'not a vpa' }));
    expect(bad.code).toBe('BAD_REQUEST');
    expect(bad.fieldErrors).toMatchObject({ upiVpa: [expect.stringMatching(/UPI id/)], gstin: [expect.stringMatching(/state/)] });
    expect(await caller.admin.payments.saveSettings(SETTINGS)).toEqual({ message: 'Billing details saved.' });
  });
});

describe('issuing', () => {
  it('taxes a supply within the clinic’s state as CGST + SGST, half the rate each, and numbers it PSN/yy-yy/0001', async () => {
    const res = await issue({ clientId: asha.id, plan: { planType: 'WL', planId: 'tier-lifestyle' }, clientStateCode: '27' });
    expect(res.status).toBe(201);
    const inv = res.body.data;
    const fy = (() => {
      const [y, m] = serviceDay(new Date()).split('-').map(Number) as [number, number];
      const start = m >= 4 ? y : y - 1;
      return `${start % 100}-${(start + 1) % 100}`;
    })();
    expect(inv.number).toBe(`PSN/${fy}/0001`);
    expect(inv).toMatchObject({
      status: 'issued',
      subtotalPaise: 1_649_900,
      taxablePaise: 1_649_900,
      cgstPaise: 148_491,
      sgstPaise: 148_491,
      igstPaise: 0,
      roundOffPaise: 18,
      totalPaise: 1_946_900,
      plan: { planType: 'WL', planId: 'tier-lifestyle' },
      repeated: false,
    });
    expect(inv.upiLink).toBe(
      `upi://pay?pa=poshan%40okaxis&pn=Poshan%20Nutrition&am=19469.00&cu=INR&tn=Invoice%20PSN%2F${fy}%2F0001&tr=PSN%2F${fy}%2F0001`,
    );
  });

  it('taxes a supply to another state as IGST at the whole rate, after the discount', async () => {
    const res = await issue({
      clientId: ravi.id,
      lines: [{ description: 'Follow-up consultation', quantity: 2, unitPaise: 100_000 }],
      discountPaise: 50_000,
      clientStateCode: '29',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      subtotalPaise: 200_000,
      taxablePaise: 150_000,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 27_000,
      totalPaise: 177_000,
    });
  });

  it('asks for the client’s state when registered, and never takes an amount it computes', async () => {
    const noState = await issue({ clientId: ravi.id, lines: [{ description: 'x', unitPaise: 100 }] });
    expect(noState.status).toBe(400);
    expect(noState.body.data.fieldErrors.clientStateCode).toBeDefined();
    const withTotal = await issue({
      clientId: ravi.id,
      lines: [{ description: 'x', unitPaise: 100 }],
      clientStateCode: '27',
      totalPaise: 1,
    });
    expect(withTotal.status).toBe(201);
    expect(withTotal.body.data.totalPaise).toBe(100);
    const fraction = await issue({ clientId: ravi.id, lines: [{ description: 'x', unitPaise: 10.5 }], clientStateCode: '27' });
    expect(fraction.status).toBe(400);
    const byClient = await issue(
      { clientId: ravi.id, lines: [{ description: 'x', unitPaise: 100 }], clientStateCode: '27' },
      server.url,
      ravi.token,
    );
    expect(byClient.status).toBe(403);
  });

  it('puts no tax lines on an invoice when the clinic is not registered', async () => {
    const caller = await callerFor(server, admin.token);
    await caller.admin.payments.saveSettings({ ...SETTINGS, gstin: '' });
    try {
      const res = await issue({ clientId: ravi.id, lines: [{ description: 'Recipe booklet', unitPaise: 49_950 }] });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        taxRateBp: 0,
        cgstPaise: 0,
        sgstPaise: 0,
        igstPaise: 0,
        roundOffPaise: 50,
        totalPaise: 50_000,
      });
      expect(res.body.data.seller.gstin).toBeNull();
    } finally {
      await caller.admin.payments.saveSettings(SETTINGS);
    }
  });

  it('answers a repeated clientRequestId with the first invoice (200), using no number', async () => {
    const body = {
      clientId: ravi.id,
      lines: [{ description: 'Once', unitPaise: 10_000 }],
      clientStateCode: '27',
      clientRequestId: randomUUID(),
    };
    const answers = await Promise.all(Array.from({ length: 5 }, () => issue(body)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.data.number)).size).toBe(1);
    // The same key with another amount and note: refused, naming both, and no number is used.
    const changed = await issue({ ...body, lines: [{ description: 'Once', unitPaise: 12_000 }], notes: 'Paid half' });
    expect(changed.status).toBe(422);
    expect(changed.body).toEqual({
      status: 422,
      message: 'This clientRequestId was already used with different details (lines, notes). Send it with a new key.',
      data: { fieldErrors: { lines: [expect.any(String)], notes: [expect.any(String)] } },
    });
    // The same details again, with the defaults spelled out: still the first invoice.
    const same = await issue({ ...body, discountPaise: 0, dueInDays: 7, lines: [{ description: 'Once', quantity: 1, unitPaise: 10_000 }] });
    expect(same.status).toBe(200);
    expect(same.body.data.number).toBe(answers[0]!.body.data.number);
    const next = await issue({ clientId: ravi.id, lines: [{ description: 'Next', unitPaise: 10_000 }], clientStateCode: '27' });
    const seq = (n: string) => Number(n.split('/')[2]);
    expect(seq(next.body.data.number)).toBe(seq(answers[0]!.body.data.number) + 1);
  });

  it('numbers 20 concurrent invoices from two instances consecutively: no gap, no repeat', async () => {
    const second = await startSecondInstance(server);
    try {
      const before = await server.deps.db
        .selectFrom('invoices')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .executeTakeFirstOrThrow();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          issue(
            { clientId: i % 2 ? asha.id : ravi.id, lines: [{ description: `Session ${i}`, unitPaise: 20_000 + i }], clientStateCode: '27' },
            i % 2 ? second.url : server.url,
          ),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
      const seqs = answers.map((a) => Number(a.body.data.number.split('/')[2])).sort((a, b) => a - b);
      const first = Number(before.seq) + 1;
      expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => first + i));
      const stored = await server.deps.db.selectFrom('invoices').select(['seq']).orderBy('seq').execute();
      expect(stored.map((r) => r.seq)).toEqual(Array.from({ length: stored.length }, (_, i) => i + 1));
    } finally {
      await second.stop();
    }
  });
});

describe('paying by UPI', () => {
  let invoiceId: number;
  beforeAll(async () => {
    const res = await issue({ clientId: asha.id, plan: { planType: 'WL', planId: 'tier-kickstart' }, clientStateCode: '27', dueInDays: 3 });
    invoiceId = res.body.data.id;
  });

  it('shows a client only their own invoices (403 for another’s)', async () => {
    const own = await server.request('GET', '/api/invoices?status=open', { token: asha.token });
    expect(own.status).toBe(200);
    expect(own.body.data.items.every((i: { client: { id: number } }) => i.client.id === asha.id)).toBe(true);
    expect((await server.request('GET', `/api/invoices/${invoiceId}`, { token: ravi.token })).status).toBe(403);
    expect((await server.request('GET', `/api/invoices?clientId=${asha.id}`, { token: ravi.token })).status).toBe(403);
    expect((await server.request('GET', '/api/invoices/999999', { token: asha.token })).status).toBe(404);
  });

  it('takes a 12-digit UTR once: a repeat answers 200, the same UTR on another invoice 422 (the claimant’s) or 409 (anyone else’s)', async () => {
    expect((await post(`/api/invoices/${invoiceId}/payment-claim`, asha.token, { utr: '12345' })).status).toBe(400);
    expect((await post(`/api/invoices/${invoiceId}/payment-claim`, ravi.token, { utr: '412345678901' })).status).toBe(403);
    const claimed = await post(`/api/invoices/${invoiceId}/payment-claim`, asha.token, { utr: '4123 4567 8901' });
    expect(claimed.status).toBe(201);
    expect(claimed.body.data).toMatchObject({ status: 'claimed', claim: { utr: '412345678901', state: 'pending' } });
    const again = await post(`/api/invoices/${invoiceId}/payment-claim`, asha.token, { utr: '412345678901' });
    expect(again.status).toBe(200);
    expect(again.body.data.repeated).toBe(true);
    const other = await issue({ clientId: asha.id, lines: [{ description: 'Extra', unitPaise: 10_000 }], clientStateCode: '27' });
    // The same claimant, the same UTR, another invoice: the first claim is not what was asked, so it is not the answer.
    const reused = await post(`/api/invoices/${other.body.data.id}/payment-claim`, asha.token, { utr: '412345678901' });
    expect(reused.status).toBe(422);
    expect(reused.body.message).toBe(
      'This UTR was already used with different details (id). A UTR backs one payment: check the 12 digits in your UPI app.',
    );
    expect(reused.body.data.fieldErrors).toEqual({ id: [expect.any(String)] });
    // Someone else's open claim holds it: two open claims never share a UTR.
    const ravis = await issue({ clientId: ravi.id, lines: [{ description: 'Consult', unitPaise: 10_000 }], clientStateCode: '27' });
    const taken = await post(`/api/invoices/${ravis.body.data.id}/payment-claim`, ravi.token, { utr: '412345678901' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toMatch(/already been used/);
    await post(`/api/invoices/${ravis.body.data.id}/void`, admin.token, { reason: 'Test invoice' });
    expect(server.mails.some((m) => m.to === admin.email && m.subject.includes('Payment claimed'))).toBe(true);
  });

  it('starts the plan in the same transaction as the payment: a failing plan leaves the invoice unpaid', async () => {
    const caller = await callerFor(server, admin.token);
    await server.deps.db.schema
      .alterTable('subscriptions')
      .addCheckConstraint('test_refuse_all', (await import('kysely')).sql`amount_received < 0`)
      .execute();
    try {
      await expect(caller.admin.payments.confirm({ id: invoiceId })).rejects.toThrow();
    } finally {
      await server.deps.db.schema.alterTable('subscriptions').dropConstraint('test_refuse_all').execute();
    }
    const row = await server.deps.db
      .selectFrom('invoices')
      .select(['status', 'subscription_id'])
      .where('id', '=', invoiceId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'claimed', subscription_id: null });
    const claims = await server.deps.db.selectFrom('payment_claims').select('state').where('invoice_id', '=', invoiceId).execute();
    expect(claims).toEqual([{ state: 'pending' }]);
    expect(await server.deps.db.selectFrom('subscriptions').select('id').where('client_id', '=', asha.id).execute()).toEqual([]);
  });

  it('confirming marks it paid and puts the client on the plan with the amount paid', async () => {
    const res = await post(`/api/invoices/${invoiceId}/confirm`, admin.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'paid', paidVia: 'upi', paymentReference: '412345678901', upiLink: null });
    const subs = await (await callerFor(server, asha.token)).subscription.active({ active: true });
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({
      id: res.body.data.subscriptionId,
      planId_fk: { planId: 'tier-kickstart' },
      amountReceived: 2182,
      startDate: serviceDay(new Date()),
    });
    // The mail goes out through the outbox after the answer: wait for it rather than expect it already sent.
    await expect
      .poll(() => server.mails.some((m) => m.to === asha.email && m.subject.startsWith('Payment received')), { timeout: 10_000 })
      .toBe(true);
    // Mail names the invoice, never the plan (health data).
    expect(server.mails.filter((m) => m.to === asha.email).some((m) => m.text.includes('Weight Loss'))).toBe(false);
    expect((await auditOf(invoiceId)).map((a) => a.action)).toEqual(['invoice.issued', 'invoice.claimed', 'invoice.paid']);
  });

  it('never changes a paid invoice', async () => {
    expect((await post(`/api/invoices/${invoiceId}/void`, admin.token, { reason: 'Oops' })).status).toBe(409);
    expect((await post(`/api/invoices/${invoiceId}/confirm`, admin.token)).status).toBe(409);
    expect((await post(`/api/invoices/${invoiceId}/payment-claim`, asha.token, { utr: '512345678901' })).status).toBe(409);
  });

  it('extends a running plan: the next paid period starts the day after it ends', async () => {
    const next = await issue({ clientId: asha.id, plan: { planType: 'WL', planId: 'tier-kickstart' }, clientStateCode: '27' });
    await post(`/api/invoices/${next.body.data.id}/payment-claim`, asha.token, { utr: '612345678901' });
    const res = await post(`/api/invoices/${next.body.data.id}/confirm`, admin.token);
    const subs = await (await callerFor(server, asha.token)).subscription.active({});
    // The running plan is listed first, the renewal paid ahead after it.
    const [first, later] = subs;
    expect([first!.status, later!.status]).toEqual(['active', 'upcoming']);
    expect(later!.id).toBe(res.body.data.subscriptionId);
    const dayAfter = new Date(Date.parse(`${first!.endDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(later!.startDate).toBe(dayAfter);
  });

  it('a rejected claim goes back to issued with the reason, and the client may claim again with another UTR', async () => {
    const inv = await issue({ clientId: ravi.id, lines: [{ description: 'Consult', unitPaise: 80_000 }], clientStateCode: '29' });
    const id = inv.body.data.id;
    await post(`/api/invoices/${id}/payment-claim`, ravi.token, { utr: '712345678901' });
    expect((await post(`/api/invoices/${id}/reject`, admin.token, { reason: '' })).status).toBe(400);
    const rejected = await post(`/api/invoices/${id}/reject`, admin.token, { reason: 'No such credit on 26 Nov' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({ status: 'issued', claim: { state: 'rejected', reason: 'No such credit on 26 Nov' } });
    expect((await post(`/api/invoices/${id}/payment-claim`, ravi.token, { utr: '712345678901' })).status).toBe(409);
    expect((await post(`/api/invoices/${id}/payment-claim`, ravi.token, { utr: '712345678902' })).status).toBe(201);
    const voided = await post(`/api/invoices/${id}/void`, admin.token, { reason: 'Issued twice' });
    expect(voided.body.data).toMatchObject({ status: 'void', voidReason: 'Issued twice', upiLink: null });
    expect((await auditOf(id)).map((a) => a.action)).toEqual([
      'invoice.issued',
      'invoice.claimed',
      'invoice.claim_rejected',
      'invoice.claimed',
      'invoice.voided',
    ]);
  });

  it('a rejected claim frees its UTR: the payer whose transfer it is can claim it, while an open claim still holds it', async () => {
    const [ashas, ravis] = await Promise.all([
      issue({ clientId: asha.id, lines: [{ description: 'Consult', unitPaise: 50_000 }], clientStateCode: '27' }),
      issue({ clientId: ravi.id, lines: [{ description: 'Consult', unitPaise: 50_000 }], clientStateCode: '27' }),
    ]);
    // Asha claims Ravi's transfer by mistake; the dietitian finds no such credit for her and rejects it.
    expect((await post(`/api/invoices/${ashas.body.data.id}/payment-claim`, asha.token, { utr: '812345678901' })).status).toBe(201);
    expect((await post(`/api/invoices/${ravis.body.data.id}/payment-claim`, ravi.token, { utr: '812345678901' })).status).toBe(409);
    await post(`/api/invoices/${ashas.body.data.id}/reject`, admin.token, { reason: 'Not your transfer' });
    const real = await post(`/api/invoices/${ravis.body.data.id}/payment-claim`, ravi.token, { utr: '812345678901' });
    expect(real.status).toBe(201);
    expect(real.body.data).toMatchObject({ status: 'claimed', claim: { utr: '812345678901', state: 'pending' } });
    // Now Ravi's open claim holds it.
    const after = await post(`/api/invoices/${ashas.body.data.id}/payment-claim`, asha.token, { utr: '812345678901' });
    expect(after.status).toBe(409);
    expect(after.body.message).toMatch(/already been used/);
    // Kept out of the month's figures below.
    for (const inv of [ashas, ravis]) await post(`/api/invoices/${inv.body.data.id}/void`, admin.token, { reason: 'Test invoice' });
  });

  it('tells every instance of each change with ids only', async () => {
    await expect.poll(() => notified.some((n) => n.invoiceId === invoiceId)).toBe(true);
    for (const n of notified) expect(Object.keys(n).sort()).toEqual(['clientId', 'invoiceId']);
  });
});

describe('PDFs and the console', () => {
  it('hands signed links to the invoice and, once paid, the receipt; the PDF shows ₹, the tax split and a Hindi name', async () => {
    const paid = await server.deps.db
      .selectFrom('invoices')
      .select('id')
      .where('client_id', '=', asha.id)
      .where('status', '=', 'paid')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect((await server.request('GET', `/api/invoices/${paid.id}/pdf`, { token: ravi.token })).status).toBe(403);
    const links = await server.request('GET', `/api/invoices/${paid.id}/pdf`, { token: asha.token });
    expect(links.status).toBe(200);
    const invoicePdf = await fetch(new URL(links.body.data.invoiceUrl, server.url));
    expect(invoicePdf.headers.get('content-type')).toBe('application/pdf');
    const invoiceBytes = new Uint8Array(await invoicePdf.arrayBuffer());
    // For a person to look at (pdftoppm -png), only when SHOTS_DIR is set, as the browser tests' screenshots.
    if (process.env.SHOTS_DIR) {
      mkdirSync(process.env.SHOTS_DIR, { recursive: true });
      writeFileSync(path.join(process.env.SHOTS_DIR, 'invoice-paid.pdf'), invoiceBytes);
    }
    const text = pdfText(invoiceBytes);
    expect(text).toContain('TAX INVOICE');
    expect(text).toContain('Asha राव');
    expect(text).toContain('₹2,182.00');
    expect(text).toMatch(/CGST @ 9%/);
    expect(text).toContain('Rupees Two Thousand One Hundred Eighty-Two only');
    const receipt = await fetch(new URL(links.body.data.receiptUrl, server.url));
    expect(pdfText(new Uint8Array(await receipt.arrayBuffer()))).toContain('PAYMENT RECEIPT');
    const forged = new URL(links.body.data.invoiceUrl, server.url);
    forged.pathname = forged.pathname.replace(/\d+$/, String(paid.id + 1));
    expect((await fetch(forged)).status).toBe(403);
  });

  it('sums the month and exports one CSV line per invoice with its tax split', async () => {
    const caller = await callerFor(server, admin.token);
    const summary = await caller.admin.payments.summary();
    expect(summary.counts.paid).toBe(2);
    expect(summary.collectedThisMonthPaise).toBe(2 * 218_200);
    const today = serviceDay(new Date());
    const { csv, rows } = await caller.admin.payments.exportCsv({ from: today, to: today });
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(rows + 1);
    expect(lines[0]).toContain('CGST,SGST,IGST');
    expect(lines[1]).toMatch(/^PSN\/\d\d-\d\d\/0001,.*,16499\.00,0\.00,18,1484\.91,1484\.91,0\.00,0\.18,19469\.00,/);
  });
});
