import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleRazorpayWebhook, WEBHOOK_NOT_CONFIGURED } from '../../server/payments/webhook.js';
import { callerFor } from '../helpers/callers.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * Razorpay (optional): a "Pay online" payment link made through
 * Razorpay's Payment Links API — here an HTTP server this test starts, which
 * checks each request and answers as Razorpay documents — and the signed
 * webhook that marks the invoice paid exactly as a confirmed UPI claim does.
 * Payloads have Razorpay's recorded shape; signatures are made here.
 */
const KEY_ID = 'rzp_test_PoshanKey01';
const KEY_SECRET = 'test-key-secret-0123';
const WEBHOOK_SECRET = 'test-webhook-secret-4567';

type LinkRequest = { path: string; authorization: string | undefined; contentType: string | undefined; body: any };
const linkRequests: LinkRequest[] = [];
let refuseNext = false;
let gateway: Server;
let server: TestServer;
let admin: TestUser;
let asha: TestUser;

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
  });

/** Razorpay's Payment Links endpoint as its reference documents it: Basic auth, JSON in, the link entity out. */
function startGateway(): Promise<string> {
  let n = 0;
  gateway = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req));
    linkRequests.push({
      path: `${req.method} ${req.url}`,
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body,
    });
    res.setHeader('content-type', 'application/json');
    if (refuseNext) {
      refuseNext = false;
      res.statusCode = 400;
      res.end(
        JSON.stringify({
          error: {
            code: 'BAD_REQUEST_ERROR',
            description: 'reference_id already exists',
            source: 'business',
            reason: 'input_validation_failed',
          },
        }),
      );
      return;
    }
    n += 1;
    const id = `plink_Test${String(n).padStart(10, '0')}`;
    res.end(
      JSON.stringify({
        accept_partial: false,
        amount: body.amount,
        amount_paid: 0,
        callback_method: body.callback_method,
        callback_url: body.callback_url,
        cancelled_at: 0,
        created_at: 1764150000,
        currency: 'INR',
        customer: body.customer,
        description: body.description,
        expire_by: 0,
        expired_at: 0,
        first_min_partial_amount: 0,
        id,
        notes: body.notes,
        notify: body.notify,
        payments: null,
        reference_id: body.reference_id,
        reminder_enable: false,
        reminders: [],
        short_url: `https://rzp.io/i/Test${n}`,
        status: 'created',
        updated_at: 1764150000,
        upi_link: false,
        user_id: '',
      }),
    );
  });
  return new Promise((resolve) =>
    gateway.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}/v1`)),
  );
}

const SETTINGS = {
  legalName: 'Poshan Nutrition LLP',
  address: '12 MG Road, Pune 411001',
  stateCode: '27',
  gstin: null,
  sacCode: '999319',
  taxRateBp: 0,
  upiVpa: 'poshan@okaxis',
  payeeName: 'Poshan Nutrition',
  invoicePrefix: 'RZP',
} as const;

beforeAll(async () => {
  const apiUrl = await startGateway();
  server = await startTestServer({
    RAZORPAY_KEY_ID: KEY_ID,
    RAZORPAY_KEY_SECRET: KEY_SECRET,
    RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
    RAZORPAY_API_URL: apiUrl,
    PUBLIC_URL: 'https://poshan.example',
  });
  [admin, asha] = await Promise.all([server.user({ role: 'admin', firstName: 'Meera' }), server.user({ firstName: 'Asha' })]);
  await (await callerFor(server, admin.token)).admin.payments.saveSettings(SETTINGS);
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await new Promise((r) => gateway?.close(r));
});

const issuePlan = async () => {
  const res = await server.request('POST', '/api/invoices', {
    token: admin.token,
    body: { clientId: asha.id, plan: { planType: 'WL', planId: 'tier-lifestyle' }, clientRequestId: randomUUID() },
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: number; number: string; totalPaise: number; payOnlineUrl: string | null; status: string };
};

/** A payment_link.paid event as Razorpay sends it (fields trimmed to the recorded shape). */
function linkPaidEvent(link: { id: string; number: string; amount: number }, paymentId: string) {
  return {
    entity: 'event',
    account_id: 'acc_TestPoshan0001',
    event: 'payment_link.paid',
    contains: ['payment_link', 'order', 'payment'],
    payload: {
      payment_link: {
        entity: {
          accept_partial: false,
          amount: link.amount,
          amount_paid: link.amount,
          currency: 'INR',
          id: link.id,
          notes: { invoice_number: link.number },
          order_id: 'order_TestOrder0001',
          reference_id: link.number,
          short_url: 'https://rzp.io/i/Test1',
          status: 'paid',
        },
      },
      order: {
        entity: {
          amount: link.amount,
          amount_paid: link.amount,
          currency: 'INR',
          entity: 'order',
          id: 'order_TestOrder0001',
          status: 'paid',
        },
      },
      payment: {
        entity: {
          amount: link.amount,
          captured: true,
          currency: 'INR',
          email: 'void@razorpay.com',
          entity: 'payment',
          fee: 0,
          id: paymentId,
          method: 'upi',
          notes: { invoice_number: link.number },
          order_id: 'order_TestOrder0001',
          status: 'captured',
          vpa: 'asha@okhdfcbank',
        },
      },
    },
    created_at: 1764150300,
  };
}

const sign = (raw: string, secret = WEBHOOK_SECRET) => createHmac('sha256', secret).update(raw).digest('hex');
const deliver = (raw: string, headers: Record<string, string>) =>
  fetch(`${server.url}/api/webhooks/razorpay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: raw,
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
const subscriptionsOf = (clientId: number) =>
  server.deps.db.selectFrom('subscriptions').select(['id', 'amount_received']).where('client_id', '=', clientId).execute();
const linkOf = (invoiceId: number) =>
  server.deps.db.selectFrom('invoices').select(['razorpay_link_id']).where('id', '=', invoiceId).executeTakeFirstOrThrow();

describe('a "Pay online" link', () => {
  it('is made through the Payment Links API for the invoice’s exact total, referenced by its number, and shown on the invoice', async () => {
    const inv = await issuePlan();
    expect(inv.payOnlineUrl).toMatch(/^https:\/\/rzp\.io\/i\/Test\d+$/);
    const sent = linkRequests.at(-1)!;
    expect(sent.path).toBe('POST /v1/payment_links');
    expect(sent.authorization).toBe(`Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`);
    expect(sent.contentType).toBe('application/json');
    expect(sent.body).toEqual({
      amount: inv.totalPaise,
      currency: 'INR',
      accept_partial: false,
      reference_id: inv.number,
      description: `Invoice ${inv.number}`,
      customer: {
        name:
          'Asha ' +
          (await server.deps.db.selectFrom('users').select('last_name').where('id', '=', asha.id).executeTakeFirstOrThrow()).last_name,
      },
      notify: { sms: false, email: false },
      reminder_enable: false,
      notes: { invoice_number: inv.number, invoice_id: String(inv.id) },
      callback_url: 'https://poshan.example/dashboard/payments',
      callback_method: 'get',
    });
    // The plan's name (health data) never leaves for the gateway.
    expect(JSON.stringify(sent.body)).not.toMatch(/lifestyle|weight/i);
    const seen = await server.request('GET', `/api/invoices/${inv.id}`, { token: asha.token });
    expect(seen.body.data.payOnlineUrl).toBe(inv.payOnlineUrl);
  });

  it('is left out when Razorpay refuses; the invoice stands and is paid by UPI', async () => {
    refuseNext = true;
    const inv = await issuePlan();
    expect(inv.status).toBe('issued');
    expect(inv.payOnlineUrl).toBeNull();
  });
});

describe('POST /api/webhooks/razorpay', () => {
  it('refuses a forged or missing signature (401) before reading anything, and pays nothing', async () => {
    const inv = await issuePlan();
    const { razorpay_link_id } = await linkOf(inv.id);
    const raw = JSON.stringify(linkPaidEvent({ id: razorpay_link_id!, number: inv.number, amount: inv.totalPaise }, 'pay_Forged000001'));
    const before = await subscriptionsOf(asha.id);
    for (const signature of [sign(raw, 'not-the-secret'), sign(`${raw} `), 'abc', '']) {
      const res = await deliver(raw, { 'x-razorpay-signature': signature, 'x-razorpay-event-id': `evt_${randomUUID()}` });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ status: 401, message: expect.stringMatching(/signature/) });
    }
    // Not even a body that is not JSON is looked at without a good signature.
    expect((await deliver('{not json', { 'x-razorpay-signature': sign('{}'), 'x-razorpay-event-id': 'evt_x' })).status).toBe(401);
    expect((await server.request('GET', `/api/invoices/${inv.id}`, { token: admin.token })).body.data.status).toBe('issued');
    expect(await subscriptionsOf(asha.id)).toEqual(before);
    const events = await server.deps.db.selectFrom('gateway_events').select('event_id').execute();
    expect(events).toEqual([]);
  });

  it('marks the invoice paid and starts the plan in one transaction; a replayed event pays nothing twice', async () => {
    const inv = await issuePlan();
    const { razorpay_link_id } = await linkOf(inv.id);
    const raw = JSON.stringify(linkPaidEvent({ id: razorpay_link_id!, number: inv.number, amount: inv.totalPaise }, 'pay_TestPaid000001'));
    const headers = { 'x-razorpay-signature': sign(raw), 'x-razorpay-event-id': 'evt_TestPaid000001' };
    const before = (await subscriptionsOf(asha.id)).length;

    const first = await deliver(raw, headers);
    expect(first).toEqual({ status: 200, body: { status: 200, message: `${inv.number} is paid.`, data: { handled: 'paid' } } });
    const paid = (await server.request('GET', `/api/invoices/${inv.id}`, { token: asha.token })).body.data;
    expect(paid).toMatchObject({
      status: 'paid',
      paidVia: 'razorpay',
      paymentReference: 'pay_TestPaid000001',
      payOnlineUrl: null,
      upiLink: null,
    });
    const subs = await subscriptionsOf(asha.id);
    expect(subs).toHaveLength(before + 1);
    expect(subs.find((s) => s.id === paid.subscriptionId)?.amount_received).toBe(inv.totalPaise / 100);

    // Razorpay retries the same event: answered, nothing changes.
    const replay = await deliver(raw, headers);
    expect(replay.status).toBe(200);
    expect(replay.body.data).toEqual({ handled: 'repeat' });
    // The same payment told again as payment.captured (another event id): the invoice is paid already.
    const captured = linkPaidEvent({ id: razorpay_link_id!, number: inv.number, amount: inv.totalPaise }, 'pay_TestPaid000001');
    const capturedRaw = JSON.stringify({
      ...captured,
      event: 'payment.captured',
      contains: ['payment'],
      payload: { payment: captured.payload.payment },
    });
    const again = await deliver(capturedRaw, { 'x-razorpay-signature': sign(capturedRaw), 'x-razorpay-event-id': 'evt_TestCaptured0001' });
    expect(again.body.data).toEqual({ handled: 'already_settled' });
    // Both at once, again: still one payment.
    await Promise.all([deliver(raw, headers), deliver(raw, headers)]);
    expect(await subscriptionsOf(asha.id)).toHaveLength(before + 1);

    const audit = await server.deps.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email'])
      .where('entity', '=', 'invoice')
      .where('entity_id', '=', inv.id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['invoice.issued', 'invoice.paid']);
    const events = await server.deps.db
      .selectFrom('gateway_events')
      .select(['event_id', 'outcome', 'payment_id', 'invoice_id'])
      .where('invoice_id', '=', inv.id)
      .orderBy('event_id')
      .execute();
    expect(events).toEqual([
      { event_id: 'evt_TestCaptured0001', outcome: 'already_settled', payment_id: 'pay_TestPaid000001', invoice_id: inv.id },
      { event_id: 'evt_TestPaid000001', outcome: 'paid', payment_id: 'pay_TestPaid000001', invoice_id: inv.id },
    ]);
    await expect.poll(() => server.mails.some((m) => m.to === asha.email && m.subject.includes(inv.number)), { timeout: 5000 }).toBe(true);
  });

  it('pays an invoice from payment.captured when the payment’s notes name it', async () => {
    const inv = await issuePlan();
    const event = linkPaidEvent({ id: 'plink_Unknown', number: inv.number, amount: inv.totalPaise }, 'pay_TestCaptured02');
    const raw = JSON.stringify({ ...event, event: 'payment.captured', contains: ['payment'], payload: { payment: event.payload.payment } });
    const res = await deliver(raw, { 'x-razorpay-signature': sign(raw), 'x-razorpay-event-id': 'evt_TestCaptured0002' });
    expect(res.body.data).toEqual({ handled: 'paid' });
    expect((await server.request('GET', `/api/invoices/${inv.id}`, { token: admin.token })).body.data.status).toBe('paid');
  });

  it('answers 200 to an event whose payment already paid another invoice, keeping the reason and paying nothing', async () => {
    const [first, second] = [await issuePlan(), await issuePlan()];
    const linkEvent = async (inv: Awaited<ReturnType<typeof issuePlan>>, paymentId: string) =>
      JSON.stringify(
        linkPaidEvent({ id: (await linkOf(inv.id)).razorpay_link_id!, number: inv.number, amount: inv.totalPaise }, paymentId),
      );
    const paid = await linkEvent(first, 'pay_TestPaysOnce01');
    expect((await deliver(paid, { 'x-razorpay-signature': sign(paid), 'x-razorpay-event-id': 'evt_TestPaysOnce01' })).body.data).toEqual({
      handled: 'paid',
    });
    const before = (await subscriptionsOf(asha.id)).length;

    const reused = await linkEvent(second, 'pay_TestPaysOnce01');
    const res = await deliver(reused, { 'x-razorpay-signature': sign(reused), 'x-razorpay-event-id': 'evt_TestPaysOnce02' });
    expect(res).toEqual({
      status: 200,
      body: { status: 200, message: `Ignored: the payment pay_TestPaysOnce01 already paid ${first.number}.`, data: { handled: 'ignored' } },
    });
    expect((await server.request('GET', `/api/invoices/${second.id}`, { token: admin.token })).body.data.status).toBe('issued');
    expect(await subscriptionsOf(asha.id)).toHaveLength(before);
    expect(
      await server.deps.db
        .selectFrom('gateway_events')
        .select(['outcome', 'invoice_id', 'payment_id', 'detail'])
        .where('event_id', '=', 'evt_TestPaysOnce02')
        .executeTakeFirst(),
    ).toEqual({
      outcome: 'ignored',
      invoice_id: second.id,
      payment_id: 'pay_TestPaysOnce01',
      detail: `the payment pay_TestPaysOnce01 already paid ${first.number}`,
    });

    // One payment named for two unpaid invoices at once: one is paid, the other event is answered and kept, never a 500.
    const [third, fourth] = [await issuePlan(), await issuePlan()];
    const events = [await linkEvent(third, 'pay_TestPaysOnce03'), await linkEvent(fourth, 'pay_TestPaysOnce03')];
    const answers = await Promise.all(
      events.map((raw, i) => deliver(raw, { 'x-razorpay-signature': sign(raw), 'x-razorpay-event-id': `evt_TestPaysOnce1${i}` })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.body.data.handled).sort()).toEqual(['ignored', 'paid']);
    const statuses = await Promise.all(
      [third, fourth].map(async (inv) => (await server.request('GET', `/api/invoices/${inv.id}`, { token: admin.token })).body.data.status),
    );
    expect(statuses.sort()).toEqual(['issued', 'paid']);
  });

  it('ignores a payment of another amount and events it does not act on, keeping them as handled', async () => {
    const inv = await issuePlan();
    const { razorpay_link_id } = await linkOf(inv.id);
    const short = JSON.stringify(
      linkPaidEvent({ id: razorpay_link_id!, number: inv.number, amount: inv.totalPaise - 100 }, 'pay_TestShort00001'),
    );
    const res = await deliver(short, { 'x-razorpay-signature': sign(short), 'x-razorpay-event-id': 'evt_TestShort00001' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ handled: 'ignored' });
    expect((await server.request('GET', `/api/invoices/${inv.id}`, { token: admin.token })).body.data.status).toBe('issued');
    const other = JSON.stringify({ entity: 'event', event: 'payment_link.expired', payload: {} });
    expect((await deliver(other, { 'x-razorpay-signature': sign(other), 'x-razorpay-event-id': 'evt_TestExpired001' })).body.data).toEqual({
      handled: 'ignored',
    });
    const noId = JSON.stringify({ entity: 'event', event: 'payment_link.paid', payload: {} });
    expect((await deliver(noId, { 'x-razorpay-signature': sign(noId) })).status).toBe(400);
  });
});

describe('without Razorpay configured', () => {
  it('answers the webhook 404, whatever it is sent', async () => {
    const deps = { ...server.deps, config: { ...server.deps.config, razorpay: undefined } };
    const raw = new TextEncoder().encode('{}');
    await expect(handleRazorpayWebhook(deps, { rawBody: raw, signature: sign('{}'), eventId: 'evt_x' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: WEBHOOK_NOT_CONFIGURED,
    });
  });
});
