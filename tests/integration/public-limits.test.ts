import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAND } from '../../server/brand.js';
import { sampleBooking } from '../helpers/booking.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { freshIp, fromIp } from '../helpers/sign-in.js';

/**
 * The public forms and the visit counter are limited per IP and per e-mail
 * address (README "Security model"). The server runs with the default form
 * limits (20 an hour per IP, 5 an hour per e-mail) and a small visit limit.
 */
let server: TestServer;
const METRICS_TOKEN = 'metrics-token-for-limit-tests-0123456789';

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: '1', RATE_LIMIT_VISITS_IP: '5/15m', METRICS_TOKEN });
});
afterAll(() => server?.stop());

const support = (body: unknown, ip: string) => server.request('POST', '/api/support/create-support-request', { body, headers: fromIp(ip) });
let contacts = 0;
// Each booking its own contact: the same e-mail and contact again would be a repeat of the first (answered 200, nothing stored).
const booking = (email: string) => {
  contacts += 1;
  return { ...sampleBooking, email, contact: String(9_000_000_000 + contacts) };
};
const book = (email: string, ip: string) =>
  server.request('POST', '/api/client/book-consultation', { body: booking(email), headers: fromIp(ip) });
const mailsToTeam = async () =>
  (await server.deps.db.selectFrom('outbox').select('id').where('to_address', '=', BRAND.supportEmail).execute()).length;

describe('support requests', () => {
  it('lets 20 of 100 requests sent from one address within a minute reach the team, and refuses the rest with 429', async () => {
    const ip = freshIp();
    const before = await mailsToTeam();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => support({ name: 'Flood', email: `flood-${i}@example.test`, message: `Message ${i}` }, ip)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(20);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(80);
    for (const r of refused) {
      expect(r.body).toEqual({ status: 429, message: 'Too many support requests. Try again in 60 minutes.' });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(59 * 60);
    }
    await server.deps.mailer.drain();
    expect((await mailsToTeam()) - before).toBe(20);
    const stored = await server.deps.db.selectFrom('support_requests').select('id').where('name', '=', 'Flood').execute();
    expect(stored).toHaveLength(20);
    // Another address behind another NAT is not affected.
    expect((await support({ name: 'Neighbour', email: 'neighbour@example.test', message: 'Hello' }, freshIp())).status).toBe(200);
  });

  it('takes 5 requests an hour for one e-mail address, whichever IP sends them', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push((await support({ name: 'Same', email: 'Same@Example.test', message: `m${i}` }, freshIp())).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('answers 429 with Retry-After over tRPC too', async () => {
    const ip = freshIp();
    const call = (i: number) =>
      server.request('POST', '/trpc/support.create', {
        body: { json: { name: 'Trpc', email: `trpc-${i}@example.test`, message: 'Hi' } },
        headers: fromIp(ip),
      });
    for (let i = 0; i < 20; i += 1) expect((await call(i)).status).toBe(200);
    const refused = await call(20);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.error.json.message).toBe('Too many support requests. Try again in 60 minutes.');
    expect(refused.body.error.json.data.retryAfterSeconds).toBeGreaterThan(0);
  });
});

describe('consultation bookings', () => {
  it('takes 5 bookings an hour for one e-mail address and 20 per IP', async () => {
    const ip = freshIp();
    const sameEmail = [];
    for (let i = 0; i < 6; i += 1) sameEmail.push((await book('repeat@example.test', freshIp())).status);
    expect(sameEmail).toEqual([201, 201, 201, 201, 201, 429]);

    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => book(`visitor-${i}@example.test`, ip)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(20);
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.body.message).toBe('Too many consultation requests. Try again in 60 minutes.');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('track-visit', () => {
  it('counts visits per IP up to the configured limit, then answers 429 on REST and tRPC', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i += 1)
      expect((await server.request('GET', '/api/client/track-visit', { headers: fromIp(ip) })).status).toBe(200);
    const rest = await server.request('GET', '/api/client/track-visit', { headers: fromIp(ip) });
    expect(rest.status).toBe(429);
    expect(rest.body.message).toBe('Too many visits from your network. Try again in 15 minutes.');
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
    const trpc = await server.request('POST', '/trpc/visit.track', { headers: { ...fromIp(ip), 'content-type': 'application/json' } });
    expect(trpc.status).toBe(429);
    expect(Number(trpc.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await server.request('GET', '/api/client/track-visit', { headers: fromIp(freshIp()) })).status).toBe(200);
  });
});

describe('metrics', () => {
  it('counts refusals by the limit that was full', async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const text = await res.text();
    for (const kind of ['support-ip', 'support-email', 'consultation-email', 'consultation-ip', 'visit-ip']) {
      expect(text, kind).toMatch(new RegExp(`poshan_rate_limit_refusals_total\\{kind="${kind}"\\} [1-9]`));
    }
  });
});
