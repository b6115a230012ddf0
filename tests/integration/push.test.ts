import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSession } from '../../server/auth/sessions-repo.js';
import { sendMessageNotices } from '../../server/messages/notify.js';
import { recordNotices } from '../../server/notifications/notify.js';
import { endpointProblem } from '../../server/push/endpoint.js';
import { PUSH_DELIVERY_JOB, deliverPush, sweepPushDeliveries } from '../../server/push/send.js';
import { subscribe } from '../../server/push/service.js';
import { resolveSessionUser } from '../../server/auth/session.js';
import { callerFor, failure } from '../helpers/callers.js';
import { type Browser, checkVapid, decryptPush, makeBrowser, startPushService } from '../helpers/push.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { until } from '../helpers/until.js';

/**
 * Web push end to end (decision 115), against a push service this
 * test runs itself on 127.0.0.1 (allowed only because the server runs with
 * PUSH_ALLOW_INSECURE_ENDPOINTS=true): a browser's keys are made here (P-256
 * and a 16-byte auth secret), each request the server sends is checked
 * (VAPID signature, TTL, Urgency, Topic) and decrypted here with node:crypto
 * as RFC 8291 says (aes128gcm, RFC 8188) to the payload a service worker shows.
 */

let server: TestServer;
let pushService: Awaited<ReturnType<typeof startPushService>>;
let dietitian: TestUser;
let client: TestUser;
let conversationId: number;
let now = new Date();
const clock = () => now;

beforeAll(async () => {
  pushService = await startPushService();
  server = await startTestServer({ PUBLIC_URL: 'https://poshan.example', PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' }, { clock });
  [dietitian, client] = await Promise.all([
    server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' }),
    server.user({ firstName: 'Sana', lastName: 'Shaikh' }),
  ]);
  const list = await (await callerFor(server, client.token)).messages.conversations({ page: 0, pageSize: 25 });
  conversationId = list.items[0]!.id;
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await pushService?.close();
});

const reply = async (text: string) =>
  (await callerFor(server, dietitian.token)).messages.send({ conversationId, text, clientMessageId: randomUUID() });
const requestsTo = (browser: Browser) => pushService.received.filter((r) => `${pushService.url}${r.path}` === browser.endpoint);
const subscribeOverRest = (user: TestUser, browser: Browser) =>
  server.request('POST', '/api/push/subscriptions', { token: user.token, body: { endpoint: browser.endpoint, keys: browser.keys } });
const deliveriesFor = (browser: Browser) =>
  server.deps.db
    .selectFrom('push_deliveries as d')
    .innerJoin('push_subscriptions as s', 's.id', 'd.subscription_id')
    .select(['d.id', 'd.state', 'd.notification_key', 'd.attempts'])
    .where('s.endpoint', '=', browser.endpoint)
    .orderBy('d.id')
    .execute();
const pushDeps = () => ({ db: server.deps.db, logger: server.deps.logger, vapid: server.deps.vapid, policy: server.deps.config.push });

describe('web push', () => {
  it('publishes the VAPID public key, which the generated pair signs for', async () => {
    const res = await server.request('GET', '/api/push/public-key');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 200, data: { publicKey: server.deps.vapid.publicKey } });
    expect(Buffer.from(res.body.data.publicKey, 'base64url')).toHaveLength(65);
  });

  it('pushes a dietitian’s message to the client’s device at once: encrypted, signed, and naming only the event', async () => {
    const phone = makeBrowser(`${pushService.url}/push/phone-${randomUUID()}`);
    const res = await subscribeOverRest(client, phone);
    expect(res.status).toBe(201);
    expect(res.body.data.endpoint).toBe(phone.endpoint);

    await reply('Your HbA1c of 7.9 is high: let us cut the rice.');
    await until(() => requestsTo(phone).length === 1, 'the push request', { timeoutMs: 30_000 });
    const [request] = requestsTo(phone);
    expect(request!.headers['content-encoding']).toBe('aes128gcm');
    expect(request!.headers.ttl).toBe(String(24 * 3600));
    expect(request!.headers.urgency).toBe('high');
    expect(request!.headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    checkVapid(request!.headers, server.deps.vapid.publicKey, pushService.url);
    const payload = JSON.parse(decryptPush(phone, request!.body));
    expect(payload).toEqual({
      title: 'New message from your dietitian',
      body: 'Open Poshan to read it and reply.',
      url: '/dashboard/messages',
      tag: `messages:${conversationId}`,
    });
    expect(decryptPush(phone, request!.body)).not.toMatch(/HbA1c|7\.9|rice/);
    await until(async () => (await deliveriesFor(phone)).every((d) => d.state === 'sent'), 'the delivery to settle', { timeoutMs: 30_000 });
  });

  it('sends each notification to each device exactly once: a job run again, a sweep, and a restart that never queued it', async () => {
    const tablet = makeBrowser(`${pushService.url}/push/tablet-${randomUUID()}`);
    expect((await subscribeOverRest(client, tablet)).status).toBe(201);
    await reply('See you on Monday.');
    await until(() => requestsTo(tablet).length === 1, 'the push request', { timeoutMs: 30_000 });
    const [delivery] = await deliveriesFor(tablet);
    // The queue hands the same job out again (at-least-once), another instance sweeps, a direct attempt: nothing more is sent.
    await server.deps.jobs.send(PUSH_DELIVERY_JOB, { deliveryId: delivery!.id });
    await Promise.all([sweepPushDeliveries(pushDeps()), deliverPush(pushDeps(), delivery!.id), deliverPush(pushDeps(), delivery!.id)]);
    await until(async () => (await server.deps.jobs.depth()) === 0, 'the job queue to drain', { timeoutMs: 30_000 });
    expect(requestsTo(tablet)).toHaveLength(1);

    // A process that recorded a notice and stopped before queueing its job: the next sweeps (two instances at once) send it once.
    const key = `test-restart:${randomUUID()}`;
    await server.deps.db.transaction().execute((trx) =>
      recordNotices(trx, { mailer: server.deps.mailer }, [
        {
          userId: client.id,
          category: 'plans',
          key,
          push: { title: 'Your new diet plan is ready', body: 'x', path: '/dashboard/diet-plan' },
        },
      ]),
    );
    await Promise.all([sweepPushDeliveries(pushDeps()), sweepPushDeliveries(pushDeps())]);
    await sweepPushDeliveries(pushDeps());
    const forKey = requestsTo(tablet).filter((r) => JSON.parse(decryptPush(tablet, r.body)).tag === key);
    expect(forKey).toHaveLength(1);
    expect(forKey[0]!.headers.urgency).toBe('normal');
    expect(forKey[0]!.headers.ttl).toBe(String(7 * 24 * 3600));
  });

  it('tries again with backoff when the push service is unavailable, then delivers once', async () => {
    const laptop = makeBrowser(`${pushService.url}/push/laptop-${randomUUID()}`);
    expect((await subscribeOverRest(client, laptop)).status).toBe(201);
    const path = new URL(laptop.endpoint).pathname;
    pushService.answers.set(path, 503);
    const key = `test-retry:${randomUUID()}`;
    await server.deps.db.transaction().execute((trx) =>
      recordNotices(trx, { mailer: server.deps.mailer }, [
        {
          userId: client.id,
          category: 'reminders',
          key,
          push: { title: 'Your check-in is due', body: 'x', path: '/dashboard/check-in' },
        },
      ]),
    );
    const [delivery] = (await deliveriesFor(laptop)).filter((d) => d.notification_key === key);
    expect(await deliverPush(pushDeps(), delivery!.id)).toEqual({ retryInSeconds: 30 });
    // Not due yet: a sweep or a second job leaves it alone.
    expect(await deliverPush(pushDeps(), delivery!.id)).toBe('skipped');
    pushService.answers.delete(path);
    await server.deps.db
      .updateTable('push_deliveries')
      .set({ next_attempt_at: new Date(Date.now() - 1000) })
      .where('id', '=', delivery!.id)
      .execute();
    expect(await deliverPush(pushDeps(), delivery!.id)).toBe('sent');
    expect(requestsTo(laptop)).toHaveLength(2);
    const [row] = (await deliveriesFor(laptop)).filter((d) => d.notification_key === key);
    expect(row).toMatchObject({ state: 'sent', attempts: 2 });
  });

  it.each([404, 410])('forgets a device when the push service answers %i', async (status) => {
    const old = makeBrowser(`${pushService.url}/push/old-${status}-${randomUUID()}`);
    expect((await subscribeOverRest(client, old)).status).toBe(201);
    pushService.answers.set(new URL(old.endpoint).pathname, status);
    await reply('Checking in.');
    await until(
      async () => {
        const row = await server.deps.db
          .selectFrom('push_subscriptions')
          .select('id')
          .where('endpoint', '=', old.endpoint)
          .executeTakeFirst();
        return row === undefined;
      },
      'the subscription to be removed',
      { timeoutMs: 30_000 },
    );
    expect(requestsTo(old)).toHaveLength(1);
  });

  it('refuses endpoints that are not push services, and loopback or private addresses unless the test setting is on', async () => {
    const secure = { allowedHosts: ['fcm.googleapis.com', '*.notify.windows.com'], allowInsecureEndpoints: false };
    expect(endpointProblem('https://fcm.googleapis.com/fcm/send/abc', secure)).toBeNull();
    expect(endpointProblem('https://db5p.notify.windows.com/w/?token=abc', secure)).toBeNull();
    expect(endpointProblem('http://fcm.googleapis.com/fcm/send/abc', secure)).toMatch(/https/);
    expect(endpointProblem('https://evil.example.com/x', secure)).toMatch(/not a push service/);
    expect(endpointProblem('https://fcm.googleapis.com.evil.example/x', secure)).toMatch(/not a push service/);
    expect(endpointProblem('https://notify.windows.com/x', secure)).toMatch(/not a push service/);
    expect(endpointProblem('https://fcm.googleapis.com:8443/x', secure)).toMatch(/port/);
    expect(endpointProblem('https://user:pw@fcm.googleapis.com/x', secure)).toMatch(/password/);
    for (const local of [
      'http://127.0.0.1:9/x',
      'https://127.0.0.1/x',
      'http://localhost:9/x',
      'http://10.0.0.5/x',
      'https://[::1]/x',
      'http://192.168.1.10/x',
    ]) {
      expect(endpointProblem(local, secure)).not.toBeNull();
      expect(endpointProblem(local, { ...secure, allowInsecureEndpoints: true })).toBeNull();
    }
    // Never public-looking addresses, even with the test setting on.
    expect(endpointProblem('http://8.8.8.8/x', { ...secure, allowInsecureEndpoints: true })).not.toBeNull();

    // Over the API: this server (test setting on) still refuses a host that is no push service, with a 400 naming the field.
    const evil = makeBrowser('https://evil.example.com/push');
    const res = await subscribeOverRest(client, evil);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('evil.example.com is not a push service');
    // And with the setting off, the loopback push service this test runs is refused at subscribe time.
    const actor = (await resolveSessionUser(server.deps.db, client.token))!;
    const local = makeBrowser(`${pushService.url}/push/refused`);
    expect((await failure(subscribe(server.deps.db, secure, actor, { endpoint: local.endpoint, keys: local.keys }))).code).toBe(
      'BAD_REQUEST',
    );
    // Keys that are not a P-256 point are refused too.
    const bad = {
      endpoint: `${pushService.url}/push/bad-key`,
      keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: local.keys.auth },
    };
    expect((await subscribeOverRest(client, { ...local, ...bad } as Browser)).status).toBe(400);
  });

  it('checks the resolved address at send time: an allowed name that resolves to loopback is never contacted', async () => {
    const before = pushService.received.length;
    const trap = makeBrowser(`${pushService.url}/push/trap-${randomUUID()}`);
    expect((await subscribeOverRest(client, trap)).status).toBe(201);
    const key = `test-ssrf:${randomUUID()}`;
    // The policy changes (the test setting off, "localhost" on the list): the stored loopback endpoint is refused without a request,
    await server.deps.db.transaction().execute((trx) =>
      recordNotices(trx, { mailer: server.deps.mailer }, [
        {
          userId: client.id,
          category: 'plans',
          key,
          push: { title: 'Your new diet plan is ready', body: 'x', path: '/dashboard/diet-plan' },
        },
      ]),
    );
    const strict = { ...pushDeps(), policy: { allowedHosts: ['localhost'], allowInsecureEndpoints: false } };
    const [delivery] = (await deliveriesFor(trap)).filter((d) => d.notification_key === key);
    expect(await deliverPush(strict, delivery!.id)).toBe('failed');
    // and a name on the list that resolves to a loopback address fails at the lookup, before any connection.
    const named = await server.deps.db
      .insertInto('push_subscriptions')
      .values({
        user_id: client.id,
        family_id: randomUUID(),
        endpoint: `https://localhost/push/${randomUUID()}`,
        p256dh: trap.keys.p256dh,
        auth: trap.keys.auth,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const [viaName] = await server.deps.db
      .insertInto('push_deliveries')
      .values({
        notification_key: key,
        subscription_id: named.id,
        service_host: 'localhost',
        payload: JSON.stringify({ title: 't', body: 'b', url: '/', tag: 't' }),
        ttl_seconds: 60,
        urgency: 'normal',
      })
      .returning('id')
      .execute();
    expect(await deliverPush(strict, viaName!.id)).toBe('failed');
    const failed = await server.deps.db
      .selectFrom('push_deliveries')
      .select('last_error')
      .where('id', '=', viaName!.id)
      .executeTakeFirstOrThrow();
    expect(failed.last_error).toMatch(/resolves to an address that is not public \((127\.0\.0\.1|::1)\)/);
    expect(pushService.received.length).toBe(before);
    // The console's health card counts them.
    const health = await (await callerFor(server, dietitian.token)).admin.overview.health();
    expect(health.failedPushCount).toBeGreaterThanOrEqual(2);
    expect(health.failedPushes[0]).toMatchObject({ service: 'localhost', attempts: 1 });
  });

  it('sends neither push nor mail for a category the person turned off', async () => {
    const watch = makeBrowser(`${pushService.url}/push/watch-${randomUUID()}`);
    expect((await subscribeOverRest(client, watch)).status).toBe(201);
    const defaults = await server.request('GET', '/api/notification-preferences', { token: client.token });
    expect(defaults.status).toBe(200);
    expect(defaults.body.data.messages).toEqual({ email: true, push: true });
    const off = await server.request('PUT', '/api/notification-preferences', {
      token: client.token,
      body: { messages: { email: false, push: false } },
    });
    expect(off.status).toBe(200);
    expect(off.body.data).toEqual({
      messages: { email: false, push: false },
      reminders: { email: true, push: true },
      plans: { email: true, push: true },
      appointments: { email: true, push: true },
      payments: { email: true, push: true },
    });
    const bad = await server.request('PUT', '/api/notification-preferences', { token: client.token, body: { messages: { push: 'no' } } });
    expect(bad.status).toBe(400);

    now = new Date();
    const sent = await reply('Quiet please.');
    const mailsBefore = server.mails.filter((m) => m.to === client.email).length;
    now = new Date(Date.now() + 11 * 60_000);
    const notices = await sendMessageNotices(server.deps, now);
    expect(notices.some((n) => n.side === 'client' && n.seq >= sent.seq)).toBe(true);
    await server.deps.mailer.drain();
    expect(server.mails.filter((m) => m.to === client.email)).toHaveLength(mailsBefore);
    const keys = (await deliveriesFor(watch)).map((d) => d.notification_key);
    expect(keys.filter((k) => k.startsWith(`message:${conversationId}:${sent.seq}:`))).toEqual([]);

    // Back on: the next message pushes again.
    await (await callerFor(server, client.token)).notifications.setPreferences({ messages: { push: true } });
    expect((await (await callerFor(server, client.token)).notifications.preferences()).messages).toEqual({ email: false, push: true });
    await reply('Now you hear me.');
    await until(() => requestsTo(watch).length === 1, 'the push after turning it back on', { timeoutMs: 30_000 });
  });

  it('removes a device’s subscription when it signs out, or is signed out from the devices list', async () => {
    const other = await issueSession(server.deps.db, client.id);
    const a = makeBrowser(`${pushService.url}/push/a-${randomUUID()}`);
    const b = makeBrowser(`${pushService.url}/push/b-${randomUUID()}`);
    expect((await subscribeOverRest({ ...client, token: other.token }, a)).status).toBe(201);
    const third = await issueSession(server.deps.db, client.id);
    expect((await subscribeOverRest({ ...client, token: third.token }, b)).status).toBe(201);
    const endpoints = async () =>
      (
        await server.deps.db.selectFrom('push_subscriptions').select('endpoint').where('endpoint', 'in', [a.endpoint, b.endpoint]).execute()
      ).map((r) => r.endpoint);
    expect((await endpoints()).sort()).toEqual([a.endpoint, b.endpoint].sort());

    await (await callerFor(server, other.token)).auth.signOut({});
    expect(await endpoints()).toEqual([b.endpoint]);

    const devices = await (await callerFor(server, client.token)).auth.devices();
    const thirdFamily = await server.deps.db
      .selectFrom('sessions')
      .select('family_id')
      .where('id', '=', third.sessionId)
      .executeTakeFirstOrThrow();
    expect(devices.some((d) => d.id === thirdFamily.family_id)).toBe(true);
    await (await callerFor(server, client.token)).auth.signOutDevice({ id: thirdFamily.family_id });
    expect(await endpoints()).toEqual([]);

    // Unsubscribing names the endpoint; another person's endpoint is not theirs to remove.
    const c = makeBrowser(`${pushService.url}/push/c-${randomUUID()}`);
    expect((await subscribeOverRest(client, c)).status).toBe(201);
    const notMine = await server.request('DELETE', '/api/push/subscriptions', { token: dietitian.token, body: { endpoint: c.endpoint } });
    expect(notMine.body.data).toEqual({ removed: false });
    const mine = await server.request('DELETE', '/api/push/subscriptions', { token: client.token, body: { endpoint: c.endpoint } });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual({ removed: true });
  });
});
