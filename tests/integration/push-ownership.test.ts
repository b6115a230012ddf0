import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSession } from '../../server/auth/sessions-repo.js';
import { recordNotices } from '../../server/notifications/notify.js';
import { MAX_PUSH_SUBSCRIPTIONS_PER_PERSON, MAX_PUSH_SUBSCRIPTIONS_PER_SIGN_IN } from '../../server/push/service.js';
import { sweepPushDeliveries } from '../../server/push/send.js';
import { type Browser, decryptPush, makeBrowser, startPushService } from '../helpers/push.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * Who a push endpoint belongs to, and how many a person may have: another
 * account naming the same endpoint never takes it from the sign-in that
 * registered it, and a sign-in or a person with too many devices keeps the
 * newest ones.
 */

let server: TestServer;
let pushService: Awaited<ReturnType<typeof startPushService>>;
let owner: TestUser;
let other: TestUser;

beforeAll(async () => {
  pushService = await startPushService();
  server = await startTestServer({ PUBLIC_URL: 'https://poshan.example', PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' });
  [owner, other] = await Promise.all([server.user({ firstName: 'Owner' }), server.user({ firstName: 'Other' })]);
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await pushService?.close();
});

const register = (token: string, browser: Pick<Browser, 'endpoint' | 'keys'>) =>
  server.request('POST', '/api/push/subscriptions', { token, body: { endpoint: browser.endpoint, keys: browser.keys } });
const unregister = (token: string, endpoint: string) => server.request('DELETE', '/api/push/subscriptions', { token, body: { endpoint } });
const rowsOf = (userId: number) =>
  server.deps.db
    .selectFrom('push_subscriptions')
    .select(['endpoint', 'family_id', 'p256dh'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
const endpointOf = (name: string) => `${pushService.url}/push/${name}-${randomUUID()}`;

describe('a push endpoint belongs to the sign-in that registered it', () => {
  it('another account naming the same endpoint with its own keys takes nothing from the owner', async () => {
    const phone = makeBrowser(endpointOf('phone'));
    expect((await register(owner.token, phone)).status).toBe(201);
    // Someone who learnt the address, not the browser's keys.
    const intruder = makeBrowser(phone.endpoint);
    expect((await register(other.token, intruder)).status).toBe(201);
    expect(await rowsOf(owner.id)).toEqual([expect.objectContaining({ endpoint: phone.endpoint, p256dh: phone.keys.p256dh })]);

    // The owner's pushes still reach the phone, encrypted for its own keys.
    const key = `test-owner:${randomUUID()}`;
    await server.deps.db.transaction().execute((trx) =>
      recordNotices(trx, { mailer: server.deps.mailer }, [
        {
          userId: owner.id,
          category: 'plans',
          key,
          push: { title: 'Your new diet plan is ready', body: 'x', path: '/dashboard/diet-plan' },
        },
      ]),
    );
    await sweepPushDeliveries({
      db: server.deps.db,
      logger: server.deps.logger,
      vapid: server.deps.vapid,
      policy: server.deps.config.push,
    });
    const toPhone = pushService.received.filter((r) => `${pushService.url}${r.path}` === phone.endpoint);
    expect(toPhone.map((r) => JSON.parse(decryptPush(phone, r.body)).tag)).toEqual([key]);

    // The owner's unsubscribe removes the owner's registration; the other account's is its own to remove.
    expect((await unregister(owner.token, phone.endpoint)).body.data).toEqual({ removed: true });
    expect(await rowsOf(owner.id)).toEqual([]);
    expect((await unregister(other.token, phone.endpoint)).body.data).toEqual({ removed: true });
  });

  it('the browser itself (same endpoint and keys) passing to another account moves it there; the same account again updates it', async () => {
    const shared = makeBrowser(endpointOf('shared'));
    expect((await register(owner.token, shared)).status).toBe(201);
    // Signed in again on the same browser: one row, now this sign-in's, with the keys it gives.
    const again = await issueSession(server.deps.db, owner.id);
    const renewed = { endpoint: shared.endpoint, keys: makeBrowser(shared.endpoint).keys };
    expect((await register(again.token, renewed)).status).toBe(201);
    const [row] = await rowsOf(owner.id);
    const family = await server.deps.db
      .selectFrom('sessions')
      .select('family_id')
      .where('id', '=', again.sessionId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ endpoint: shared.endpoint, family_id: family.family_id, p256dh: renewed.keys.p256dh });

    // Another person signs in on that browser: it hands over the very keys the browser holds, so the device is theirs now.
    expect((await register(other.token, renewed)).status).toBe(201);
    expect(await rowsOf(owner.id)).toEqual([]);
    expect((await rowsOf(other.id)).map((r) => r.endpoint)).toContain(shared.endpoint);
  });
});

describe('how many devices', () => {
  it(`keeps the newest ${MAX_PUSH_SUBSCRIPTIONS_PER_SIGN_IN} of one sign-in, however many it registers`, async () => {
    const person = await server.user({ firstName: 'Many' });
    const endpoints: string[] = [];
    for (let i = 0; i < 300; i += 1) {
      const browser = makeBrowser(endpointOf(`many-${i}`));
      endpoints.push(browser.endpoint);
      const res = await register(person.token, browser);
      expect(res.status).toBe(201);
    }
    const kept = (await rowsOf(person.id)).map((r) => r.endpoint);
    expect(kept.sort()).toEqual(endpoints.slice(-MAX_PUSH_SUBSCRIPTIONS_PER_SIGN_IN).sort());
  }, 120_000);

  it(`keeps the newest ${MAX_PUSH_SUBSCRIPTIONS_PER_PERSON} of a person across sign-ins; registering one again makes it the newest`, async () => {
    const person = await server.user({ firstName: 'Busy' });
    const signIns = [
      person.token,
      (await issueSession(server.deps.db, person.id)).token,
      (await issueSession(server.deps.db, person.id)).token,
    ];
    const browsers: Browser[] = [];
    for (const token of signIns) {
      for (let i = 0; i < MAX_PUSH_SUBSCRIPTIONS_PER_SIGN_IN; i += 1) {
        const browser = makeBrowser(endpointOf('busy'));
        browsers.push(browser);
        expect((await register(token, browser)).status).toBe(201);
      }
    }
    const newest = browsers.slice(-MAX_PUSH_SUBSCRIPTIONS_PER_PERSON).map((b) => b.endpoint);
    expect((await rowsOf(person.id)).map((r) => r.endpoint).sort()).toEqual([...newest].sort());

    // The oldest kept one registers again, so a new one from a fourth sign-in pushes out the one after it instead.
    const refreshed = browsers[browsers.length - MAX_PUSH_SUBSCRIPTIONS_PER_PERSON]!;
    expect((await register(signIns[1]!, refreshed)).status).toBe(201);
    const fourth = await issueSession(server.deps.db, person.id);
    expect((await register(fourth.token, makeBrowser(endpointOf('busy-last')))).status).toBe(201);
    const kept = (await rowsOf(person.id)).map((r) => r.endpoint);
    expect(kept).toHaveLength(MAX_PUSH_SUBSCRIPTIONS_PER_PERSON);
    expect(kept).toContain(refreshed.endpoint);
    expect(kept).not.toContain(browsers[browsers.length - MAX_PUSH_SUBSCRIPTIONS_PER_PERSON + 1]!.endpoint);
  }, 120_000);
});
