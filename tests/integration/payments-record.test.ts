import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPlan } from '../../server/catalogue/plans.js';
import { addDays, serviceDay } from '../../server/time.js';
import { callerFor, failure } from '../helpers/callers.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * "Record a payment": cash or a bank transfer a dietitian received, recorded
 * against an invoice through REST and tRPC. It pays the invoice like a
 * confirmed claim (the plan starts or extends), is audited, answers a
 * repeated request key with the first result, and refuses bad input with a
 * 4xx naming the field.
 */
let server: TestServer;
let admin: TestUser;
let asha: TestUser;
let ravi: TestUser;
const notified: number[] = [];

beforeAll(async () => {
  server = await startTestServer();
  [admin, asha, ravi] = await Promise.all([
    server.user({ role: 'admin', firstName: 'Meera' }),
    server.user({ firstName: 'Asha' }),
    server.user({ firstName: 'Ravi' }),
  ]);
  await (await callerFor(server, admin.token)).admin.payments.saveSettings({
    legalName: 'Poshan Nutrition LLP',
    address: '12 MG Road, Pune 411001',
    stateCode: '27',
    gstin: '27ABCDE1234F1Z5',
    sacCode: '999319',
    taxRateBp: 1800,
    upiVpa: 'poshan@okaxis',
    payeeName: 'Poshan Nutrition',
    invoicePrefix: 'PSN',
  });
  await server.deps.dbHandle.listen('invoices', (payload) => notified.push(JSON.parse(payload).invoiceId));
});
afterAll(() => server?.stop());

const today = () => serviceDay(new Date());
const post = (path: string, token: string, body?: unknown) => server.request('POST', path, { token, body });
async function issuePlan(clientId: number, planId: 'tier-kickstart' | 'tier-commitment' = 'tier-kickstart') {
  const caller = await callerFor(server, admin.token);
  return caller.admin.payments.issue({ clientId, plan: { planType: 'WL', planId }, clientStateCode: '27', clientRequestId: randomUUID() });
}
const cash = (totalPaise: number, extra: Record<string, unknown> = {}) => ({
  method: 'cash',
  amountPaise: totalPaise,
  receivedOn: today(),
  clientRequestId: randomUUID(),
  ...extra,
});

describe('recording a cash payment through REST', () => {
  let invoiceId: number;
  let totalPaise: number;
  let body: ReturnType<typeof cash>;

  beforeAll(async () => {
    const inv = await issuePlan(asha.id);
    invoiceId = inv.id;
    totalPaise = inv.totalPaise;
    body = cash(totalPaise, { reference: 'Receipt 17' });
  });

  it('marks the invoice paid, starts the plan with the invoice’s total, tells the client and audits it (201)', async () => {
    const res = await post(`/api/invoices/${invoiceId}/payments`, admin.token, body);
    expect(res.status).toBe(201);
    const plan = findPlan('WL', 'tier-kickstart')!;
    expect(res.body.message).toMatch(new RegExp(`^PSN/\\d\\d-\\d\\d/\\d{4} is paid\\. ${plan.name} runs from .+ to .+\\.$`));
    expect(res.body.data).toMatchObject({
      status: 'paid',
      paidVia: 'cash',
      paymentReference: 'Receipt 17',
      upiLink: null,
      repeated: false,
    });
    const subs = await (await callerFor(server, asha.token)).subscription.active({ active: true });
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({
      id: res.body.data.subscriptionId,
      status: 'active',
      startDate: today(),
      amountReceived: totalPaise / 100,
      invoice: { number: res.body.data.number, totalPaise },
    });
    const audit = await server.deps.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id', 'summary'])
      .where('entity', '=', 'invoice')
      .where('entity_id', '=', invoiceId)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['invoice.issued', 'invoice.paid']);
    expect(audit[1]).toMatchObject({ actor_id: admin.id, summary: expect.stringContaining('Recorded cash payment Receipt 17') });
    await expect.poll(() => notified.filter((id) => id === invoiceId).length).toBe(2);
    await expect
      .poll(() => server.mails.some((m) => m.to === asha.email && m.subject.startsWith('Payment received')), { timeout: 10_000 })
      .toBe(true);
  });

  it('answers the same request again with the first result (200, repeated), storing nothing new', async () => {
    const res = await post(`/api/invoices/${invoiceId}/payments`, admin.token, body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'paid', paidVia: 'cash', repeated: true });
    const rows = await server.deps.db.selectFrom('offline_payments').select('id').where('invoice_id', '=', invoiceId).execute();
    expect(rows).toHaveLength(1);
    const subs = await server.deps.db.selectFrom('subscriptions').select('id').where('client_id', '=', asha.id).execute();
    expect(subs).toHaveLength(1);
  });

  it('refuses the same key with other details (422, naming them)', async () => {
    const res = await post(`/api/invoices/${invoiceId}/payments`, admin.token, { ...body, reference: 'Receipt 18' });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/clientRequestId was already used with different details \(reference\)/);
  });

  it('refuses a second payment for a paid invoice (409)', async () => {
    const res = await post(`/api/invoices/${invoiceId}/payments`, admin.token, cash(totalPaise));
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/paid/);
  });
});

describe('bad input', () => {
  let invoiceId: number;
  let totalPaise: number;
  beforeAll(async () => {
    const inv = await issuePlan(ravi.id);
    invoiceId = inv.id;
    totalPaise = inv.totalPaise;
  });
  const record = (body: unknown, token = admin.token, id: number | string = invoiceId) => post(`/api/invoices/${id}/payments`, token, body);

  it.each([
    ['no method', { method: undefined }, 'method', /cash or bank transfer/],
    ['another method', { method: 'cheque' }, 'method', /cash or bank transfer/],
    ['no amount', { amountPaise: undefined }, 'amountPaise', /Amount is required/],
    ['a fractional amount', { amountPaise: 100.5 }, 'amountPaise', /whole paise/],
    ['a zero amount', { amountPaise: 0 }, 'amountPaise', /more than ₹0/],
    ['no date', { receivedOn: '' }, 'receivedOn', /day the payment was received/],
    ['an impossible date', { receivedOn: '2026-02-30' }, 'receivedOn', /real date/],
    ['a key that is not a UUID', { clientRequestId: 'again' }, 'clientRequestId', /UUID/],
    ['a bank transfer without its reference', { method: 'bank_transfer' }, 'reference', /bank’s reference/],
    ['a reference with markup', { reference: '<b>x</b>' }, 'reference', /letters, digits/],
  ])('refuses %s (400, on its field)', async (_name, change, field, message) => {
    const res = await record({ ...cash(totalPaise), ...change });
    expect(res.status).toBe(400);
    expect(res.body.data.fieldErrors[field][0]).toMatch(message);
  });

  it('refuses an amount other than the invoice’s total, saying the total (400)', async () => {
    const res = await record(cash(totalPaise - 100));
    expect(res.status).toBe(400);
    expect(res.body.data.fieldErrors.amountPaise[0]).toMatch(/must be the invoice’s total, ₹[\d,]+\.\d\d/);
  });

  it('refuses a day in the future or more than a year ago (400)', async () => {
    const future = await record(cash(totalPaise, { receivedOn: addDays(today(), 2) }));
    expect(future.status).toBe(400);
    expect(future.body.data.fieldErrors.receivedOn).toEqual(['The day received cannot be in the future']);
    const old = await record(cash(totalPaise, { receivedOn: addDays(today(), -400) }));
    expect(old.status).toBe(400);
    expect(old.body.data.fieldErrors.receivedOn).toEqual(['The day received must be within the last year']);
  });

  it('is for dietitians only (403 for a client, 401 without a token) and names a missing invoice (404)', async () => {
    expect((await record(cash(totalPaise), ravi.token)).status).toBe(403);
    expect((await server.request('POST', `/api/invoices/${invoiceId}/payments`, { body: cash(totalPaise) })).status).toBe(401);
    const missing = await record(cash(totalPaise), admin.token, 999_999);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('That invoice does not exist.');
  });

  it('refuses a void invoice (409)', async () => {
    const caller = await callerFor(server, admin.token);
    const inv = await caller.admin.payments.issue({
      clientId: ravi.id,
      lines: [{ description: 'Consultation', unitPaise: 50_000 }],
      clientStateCode: '27',
      clientRequestId: randomUUID(),
    });
    await caller.admin.payments.void({ id: inv.id, reason: 'Issued twice' });
    const res = await record(cash(inv.totalPaise), admin.token, inv.id);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/cancelled/);
  });

  it('left the invoice open after every refusal', async () => {
    const caller = await callerFor(server, admin.token);
    expect((await caller.invoice.get({ id: invoiceId })).status).toBe('issued');
  });
});

describe('recording a bank transfer through tRPC', () => {
  it('settles a waiting UPI claim, and a renewal paid ahead is listed after the running plan, labelled with its start', async () => {
    const client = await server.user({ firstName: 'Kiran' });
    const admins = await callerFor(server, admin.token);
    const running = await issuePlan(client.id, 'tier-kickstart');
    const key = randomUUID();
    const first = await admins.admin.payments.recordPayment({
      id: running.id,
      method: 'bank_transfer',
      amountPaise: running.totalPaise,
      reference: 'HDFC-N123456789',
      receivedOn: addDays(today(), -1),
      clientRequestId: key,
    });
    expect(first.invoice).toMatchObject({ status: 'paid', paidVia: 'bank_transfer', paymentReference: 'HDFC-N123456789' });

    // The renewal: the client claimed it by UPI, then paid by bank transfer instead.
    const renewal = await issuePlan(client.id, 'tier-commitment');
    await (await callerFor(server, client.token)).invoice.claim({ id: renewal.id, utr: '812345678901' });
    const paid = await admins.admin.payments.recordPayment({
      id: renewal.id,
      method: 'bank_transfer',
      amountPaise: renewal.totalPaise,
      reference: 'HDFC-N987654321',
      receivedOn: today(),
      clientRequestId: randomUUID(),
    });
    expect(paid.invoice.status).toBe('paid');
    expect(paid.invoice.claim).toMatchObject({ state: 'rejected', reason: 'Paid by bank transfer instead' });

    const subs = await (await callerFor(server, client.token)).subscription.active({ active: true });
    expect(subs.map((s) => [s.planId_fk.planId, s.status])).toEqual([
      ['tier-kickstart', 'active'],
      ['tier-commitment', 'upcoming'],
    ]);
    expect(subs[1]!.startDate).toBe(addDays(subs[0]!.endDate, 1));
    expect(subs[1]!.invoice).toEqual({
      number: renewal.number,
      planPricePaise: findPlan('WL', 'tier-commitment')!.sellPrice * 100,
      discountPaise: 0,
      taxPaise: renewal.cgstPaise + renewal.sgstPaise,
      totalPaise: renewal.totalPaise,
    });
    expect(subs[1]!.amountReceived * 100).toBe(renewal.totalPaise);

    // The first key again, from the typed client: the first answer.
    const again = await admins.admin.payments.recordPayment({
      id: running.id,
      method: 'bank_transfer',
      amountPaise: running.totalPaise,
      reference: 'HDFC-N123456789',
      receivedOn: addDays(today(), -1),
      clientRequestId: key,
    });
    expect(again.invoice.repeated).toBe(true);
    const bad = await failure(
      admins.admin.payments.recordPayment({ ...cash(running.totalPaise), id: running.id, method: 'card' } as never),
    );
    expect(bad.code).toBe('BAD_REQUEST');
  });

  it('is described in the OpenAPI document like the other invoice paths', async () => {
    const doc = (await server.request('GET', '/api/openapi.json')).body;
    const op = doc.paths['/invoices/{id}/payments'].post;
    expect(op.tags).toEqual(['Payments']);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '201', '400', '404', '409', '422']));
    expect(Object.keys(op.requestBody.content['application/json'].schema.properties ?? {})).toEqual(
      expect.arrayContaining(['method', 'amountPaise', 'reference', 'receivedOn', 'clientRequestId']),
    );
  });
});
