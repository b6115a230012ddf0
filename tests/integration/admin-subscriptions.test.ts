import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayUtc } from '../../server/validation.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { callerFor, failure } from '../helpers/callers.js';

let server: TestServer;
let admin: TestUser;
let client: TestUser;
let console_: Awaited<ReturnType<typeof callerFor>>;
let asClient: Awaited<ReturnType<typeof callerFor>>;

beforeAll(async () => {
  server = await startTestServer();
  [admin, client] = await Promise.all([server.user({ role: 'admin' }), server.user({ firstName: 'Isha', lastName: 'Verma' })]);
  console_ = await callerFor(server, admin.token);
  asClient = await callerFor(server, client.token);
});
afterAll(() => server?.stop());

const today = todayUtc();
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe('subscriptions', () => {
  let subscriptionId: number;

  it('assigns a catalogue plan: end date from its length, list price from the catalogue, amount in rupees', async () => {
    const start = addDays(today, -10);
    const res = await console_.admin.subscriptions.assign({
      clientId: client.id,
      planType: 'WL',
      planId: 'tier-commitment',
      startDate: start,
      amountReceived: '₹9,599',
    });
    subscriptionId = res.id;
    expect(res.message).toMatch(/^Weight Loss 6 Months runs from \d{1,2} [A-Z][a-z]{2} \d{4} to \d{1,2} [A-Z][a-z]{2} \d{4}\.$/);

    // The client is told, in plain text and HTML.
    const mail = await server.deps.db
      .selectFrom('outbox')
      .select(['subject', 'body_text', 'body_html'])
      .where('to_address', '=', client.email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Your Weight Loss 6 Months is confirmed');
    expect(mail.body_text).toContain('Amount paid: ₹9,599');
    expect(mail.body_text).toMatch(/Starts: \d{1,2} [A-Z][a-z]{2} \d{4}/);
    expect(mail.body_html).toContain('/dashboard/active-subscription');

    const card = await asClient.subscription.active({ active: true });
    expect(card).toEqual([
      expect.objectContaining({
        id: subscriptionId,
        planId_fk: expect.objectContaining({ planType: 'WL', planMRP: 11999, planName: 'Weight Loss 6 Months' }),
        amountReceived: 9599,
        startDate: start,
        isExpired: false,
      }),
    ]);
    const page = await console_.admin.subscriptions.list({ clientId: client.id });
    expect(page.items[0]).toMatchObject({ status: 'Active', listPrice: 11999, amountReceived: 9599, client: { fullName: 'Isha Verma' } });
  });

  it.each([
    [{ planType: 'WL', planId: 'tier-pcod' }, 'The WL catalogue has no plan tier-pcod.'],
    [{ planType: 'XX', planId: 'tier-kickstart' }, 'Plan type must be one of WL, WG, DP, LP'],
    [{ planType: 'WL', planId: 'tier-kickstart', amountReceived: -5 }, 'Amount received cannot be negative'],
    [{ planType: 'WL', planId: 'tier-kickstart', amountReceived: '' }, 'Amount received is required'],
    [{ planType: 'WL', planId: 'tier-kickstart', startDate: '2026-02-30' }, 'Use a real date in the form YYYY-MM-DD'],
  ])('refuses %j: "%s"', async (patch, message) => {
    const input = { clientId: client.id, startDate: today, amountReceived: 1000, ...patch } as never;
    expect((await failure(console_.admin.subscriptions.assign(input))).message).toBe(message);
  });

  it('expires a running subscription: the client’s card shows it at once', async () => {
    const res = await console_.admin.subscriptions.expire({ id: subscriptionId });
    expect(res.message).toBe('Weight Loss 6 Months of Isha has ended.');
    expect(await asClient.subscription.active({ active: true })).toEqual([]);
    expect((await asClient.subscription.active({}))[0]).toMatchObject({ id: subscriptionId, isExpired: true });
    expect((await failure(console_.admin.subscriptions.expire({ id: subscriptionId }))).message).toBe(
      'This subscription has already ended.',
    );
    expect((await console_.admin.subscriptions.list({ state: 'expired' })).items.map((s) => [s.id, s.status])).toEqual([
      [subscriptionId, 'Cancelled'],
    ]);
  });

  it('renews an ended subscription from today, and a running one from the day after it ends', async () => {
    const renewed = await console_.admin.subscriptions.renew({ id: subscriptionId, amountReceived: 9599 });
    const first = (await console_.admin.subscriptions.list({ clientId: client.id, state: 'active' })).items;
    expect(first).toEqual([
      expect.objectContaining({ id: renewed.id, startDate: today, planName: 'Weight Loss 6 Months', status: 'Active' }),
    ]);

    const again = await console_.admin.subscriptions.renew({ id: renewed.id, amountReceived: '9599' });
    const next = (await console_.admin.subscriptions.list({ clientId: client.id, state: 'active' })).items.find((s) => s.id === again.id)!;
    expect(next.startDate).toBe(addDays(first[0]!.endDate, 1));
    expect(next.status).toBe('Upcoming');

    const trail = await server.deps.db
      .selectFrom('audit_log')
      .select(['action', 'entity_id'])
      .where('entity', '=', 'subscription')
      .orderBy('id')
      .execute();
    expect(trail).toEqual([
      { action: 'subscription.assigned', entity_id: subscriptionId },
      { action: 'subscription.expired', entity_id: subscriptionId },
      { action: 'subscription.renewed', entity_id: renewed.id },
      { action: 'subscription.renewed', entity_id: again.id },
    ]);
  });
});
