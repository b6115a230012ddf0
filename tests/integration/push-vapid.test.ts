import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '../../server/db/connect.js';
import type { DbHandle } from '../../server/db/index.js';
import type { AppDeps } from '../../server/deps.js';
import { loadConfig } from '../../server/env.js';
import { recordNotices } from '../../server/notifications/notify.js';
import { deliverPush } from '../../server/push/send.js';
import { resolveVapidKeys, StoredVapidKeysUnreadableError } from '../../server/push/vapid.js';
import { createDeps, listen, type RunningServer } from '../../server/server.js';
import { checkVapid, decryptPush, makeBrowser, startPushService } from '../helpers/push.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * With no VAPID pair set, the first start makes one and keeps it in the
 * database, its private half sealed with APP_SECRET: every instance started
 * with that secret signs with the same pair, so nothing but APP_SECRET needs
 * setting. A pair the operator sets wins.
 */

const ENV = { PUBLIC_URL: 'https://poshan.example', PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' };
let server: TestServer;
let second: { deps: AppDeps; running: RunningServer; own: DbHandle | null };
let pushService: Awaited<ReturnType<typeof startPushService>>;
let client: TestUser;

beforeAll(async () => {
  pushService = await startPushService();
  server = await startTestServer(ENV);
  // A second instance on the same database, as a second process would run it (its own pool on Postgres).
  const shared = server.deps.dbHandle as DbHandle & { url?: string };
  const own = shared.url ? connectPostgres(shared.url, 5) : null;
  const deps = await createDeps(
    loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', SEED_DEMO: '0', ...ENV }),
    own ?? shared,
    server.deps.secret,
  );
  second = { deps, running: await listen(deps, { port: 0, host: '127.0.0.1', serveClient: false }), own };
  client = await server.user({ firstName: 'Asha' });
}, 180_000);
afterAll(async () => {
  await second?.running.close();
  await second?.own?.close();
  await server?.stop();
  await pushService?.close();
});

const config = (env: Record<string, string> = {}) => loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', ...ENV, ...env });
const storedRows = () => server.deps.db.selectFrom('push_vapid_keys').selectAll().execute();

describe('the VAPID key pair', () => {
  it('is made at the first start and shared by every instance: one row, the private key only sealed', async () => {
    expect(second.deps.vapid).toEqual(server.deps.vapid);
    const [first, other] = await Promise.all(
      [server.url, second.running.url].map(async (url) => (await (await fetch(`${url}/api/push/public-key`)).json()).data.publicKey),
    );
    expect(first).toBe(server.deps.vapid.publicKey);
    expect(other).toBe(first);

    const rows = await storedRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.public_key).toBe(server.deps.vapid.publicKey);
    const sealed = rows[0]!.private_key_sealed;
    expect(sealed).toMatch(/^v1\./);
    const plain = Buffer.from(server.deps.vapid.privateKey, 'base64url');
    expect(sealed).not.toContain(server.deps.vapid.privateKey);
    expect(Buffer.from(sealed).includes(plain)).toBe(false);
    expect(sealed).not.toContain(plain.toString('hex'));
    expect(sealed).not.toContain(plain.toString('base64'));
  });

  it('is made once when instances start together on a fresh database', async () => {
    const [kept] = await storedRows();
    await server.deps.db.deleteFrom('push_vapid_keys').execute();
    const pairs = await Promise.all(Array.from({ length: 4 }, () => resolveVapidKeys(config(), server.deps.db, server.deps.secret)));
    expect(new Set(pairs.map((p) => `${p.publicKey}:${p.privateKey}`)).size).toBe(1);
    expect(await storedRows()).toHaveLength(1);
    expect(pairs[0]!.publicKey).not.toBe(server.deps.vapid.publicKey);
    // The pair both running instances sign with, back in place.
    await server.deps.db.deleteFrom('push_vapid_keys').execute();
    await server.deps.db.insertInto('push_vapid_keys').values(kept!).execute();
    expect(await resolveVapidKeys(config(), server.deps.db, server.deps.secret)).toEqual(server.deps.vapid);
  });

  it('set by the operator wins, and the stored one is left alone', async () => {
    const before = await storedRows();
    const env = { VAPID_PUBLIC_KEY: makeBrowser('x').keys.p256dh, VAPID_PRIVATE_KEY: randomBytes(32).toString('base64url') };
    const keys = await resolveVapidKeys(config(env), server.deps.db, server.deps.secret);
    expect(keys).toEqual({ publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: 'https://poshan.example' });
    expect(await storedRows()).toEqual(before);
  });

  it('sealed with another APP_SECRET stops the start with what to do, instead of silencing every device', async () => {
    const error = await resolveVapidKeys(config(), server.deps.db, randomBytes(32).toString('hex')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoredVapidKeysUnreadableError);
    expect((error as Error).message).toContain('APP_SECRET');
    expect((error as Error).message).toContain('VAPID_PUBLIC_KEY');
  });

  it('signs pushes the push service accepts, whichever instance sends them', async () => {
    const phone = makeBrowser(`${pushService.url}/push/vapid-${randomUUID()}`);
    const res = await server.request('POST', '/api/push/subscriptions', {
      token: client.token,
      body: { endpoint: phone.endpoint, keys: phone.keys },
    });
    expect(res.status).toBe(201);
    const key = `test-vapid:${randomUUID()}`;
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
    const delivery = await server.deps.db
      .selectFrom('push_deliveries')
      .select('id')
      .where('notification_key', '=', key)
      .executeTakeFirstOrThrow();
    // The second instance sends it: the signature checks out against the key the first one publishes.
    const sent = await deliverPush(
      { db: second.deps.db, logger: second.deps.logger, vapid: second.deps.vapid, policy: second.deps.config.push },
      delivery.id,
    );
    expect(sent).toBe('sent');
    const request = pushService.received.find((r) => `${pushService.url}${r.path}` === phone.endpoint);
    checkVapid(request!.headers, server.deps.vapid.publicKey, pushService.url);
    expect(JSON.parse(decryptPush(phone, request!.body)).tag).toBe(key);
  });
});
