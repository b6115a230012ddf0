import { createPublicKey, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keyEncryptionKey, openPrivateKey } from '../../server/auth/key-crypto.js';
import { KEY_GRACE_MS, KEY_ROTATE_AFTER_MS, currentPublicKey, forgetCachedKeys } from '../../server/auth/keys.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { AUTH_TEST_ENV, encryptPassword, encryptWithPublishedKey, freshIp, fromIp } from '../helpers/sign-in.js';

let server: TestServer;
let user: TestUser;

beforeAll(async () => {
  server = await startTestServer(AUTH_TEST_ENV);
  user = await server.user();
});
afterAll(() => server?.stop());
beforeEach(() => forgetCachedKeys(server.deps.db));

const db = () => server.deps.db;
const publicKey = () => server.request('GET', '/api/auth/public-key');
const signInWith = (password: string) =>
  server.request('POST', '/api/auth/sign-in', { body: { email: user.email, password, role: 2 }, headers: fromIp(freshIp()) });
const ago = (ms: number) => new Date(Date.now() - ms);
const HOUR = 60 * 60 * 1000;
/** created_at is never updated by the app (the schema types say so); tests move it to simulate time passing. */
const setKeyCreatedAt = (kid: string, at: Date) => sql`update auth_keys set created_at = ${at} where kid = ${kid}`.execute(db());

describe('GET /api/auth/public-key', () => {
  it('publishes an RSA-OAEP-256 public key with its kid, and the same one on every call', async () => {
    const res = await publicKey();
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(200);
    const { kid, jwk } = res.body.data;
    expect(jwk).toMatchObject({ kty: 'RSA', alg: 'RSA-OAEP-256', e: 'AQAB', kid });
    for (const privatePart of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(jwk).not.toHaveProperty(privatePart);
    forgetCachedKeys(db());
    expect((await publicKey()).body.data.kid).toBe(kid);
    // Stored once, the private key sealed (never in clear).
    const rows = await db().selectFrom('auth_keys').selectAll().execute();
    expect(rows).toHaveLength(1);
    const sealed = rows[0]!.private_key_enc;
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('PRIVATE KEY');
    // It opens only with this server's secret, to the private half of the published key.
    const privateKey = openPrivateKey(sealed, keyEncryptionKey(server.deps.secret), kid);
    expect(createPublicKey(privateKey).export({ format: 'jwk' }).n).toBe(jwk.n);
    expect(() => openPrivateKey(sealed, keyEncryptionKey(randomBytes(32).toString('hex')), kid)).toThrow();
  });
});

describe('encrypted passwords', () => {
  it('round-trips: WebCrypto encryption with the published JWK signs in', async () => {
    const { value } = await encryptWithPublishedKey(server, user.password);
    expect(value).toMatch(/^enc:[\w-]+:[\w-]{342}$/);
    const res = await signInWith(value);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(user.id);
  });

  it('refuses a wrong password that was encrypted with 401, like a plain one', async () => {
    const { value } = await encryptWithPublishedKey(server, 'not-the-password');
    const res = await signInWith(value);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Incorrect email or password.');
  });

  it('asks the client to fetch the key again for an unknown kid', async () => {
    const { value } = await encryptWithPublishedKey(server, user.password);
    const res = await signInWith(value.replace(/^enc:[\w-]+:/, 'enc:unknownkid:'));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'The password was encrypted with a key that is no longer in use. Fetch the current public key and try again.',
    );
    expect(res.body.data.fieldErrors.password).toHaveLength(1);
  });

  it('refuses a ciphertext that is not for this key with 400', async () => {
    const { kid } = (await publicKey()).body.data;
    const foreign = await globalThis.crypto.subtle.generateKey(
      { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['encrypt', 'decrypt'],
    );
    const jwk = await globalThis.crypto.subtle.exportKey('jwk', foreign.publicKey);
    const res = await signInWith(await encryptPassword({ ...jwk, key_ops: ['encrypt'] }, kid, user.password));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The encrypted password could not be read. Fetch the current public key and encrypt the password again.');
  });
});

describe('key rotation', () => {
  it('makes a new key after a day, and the previous one keeps working for the grace period only', async () => {
    const old = await encryptWithPublishedKey(server, user.password);
    await setKeyCreatedAt(old.kid, ago(KEY_ROTATE_AFTER_MS + 60_000));
    forgetCachedKeys(db());

    const fresh = await encryptWithPublishedKey(server, user.password);
    expect(fresh.kid).not.toBe(old.kid);
    const oldRow = await db().selectFrom('auth_keys').selectAll().where('kid', '=', old.kid).executeTakeFirstOrThrow();
    expect(oldRow.retired_at).not.toBeNull();
    expect(Math.abs(oldRow.retired_at!.getTime() - Date.now())).toBeLessThan(60_000);

    // A form opened before the rotation still signs in...
    expect((await signInWith(old.value)).status).toBe(200);
    expect((await signInWith(fresh.value)).status).toBe(200);

    // ...until the grace period after retirement is over.
    await db()
      .updateTable('auth_keys')
      .set({ retired_at: ago(KEY_GRACE_MS + 1000) })
      .where('kid', '=', old.kid)
      .execute();
    const late = await signInWith(old.value);
    expect(late.status).toBe(400);
    expect(late.body.message).toMatch(/Fetch the current public key/);
    expect((await signInWith(fresh.value)).status).toBe(200);
  });

  it('makes exactly one new key when several instances rotate at once', async () => {
    const current = (await publicKey()).body.data.kid as string;
    await setKeyCreatedAt(current, ago(KEY_ROTATE_AFTER_MS + HOUR));
    // Separate Kysely instances over the same database: separate in-memory caches, as separate processes have.
    const instances = Array.from({ length: 3 }, () => ({ db: db().withoutPlugins(), secret: server.deps.secret }));
    const kids = await Promise.all(instances.map((deps) => currentPublicKey(deps).then((k) => k.kid)));
    expect(new Set(kids).size).toBe(1);
    expect(kids[0]).not.toBe(current);
    const unretired = await db().selectFrom('auth_keys').select('kid').where('retired_at', 'is', null).execute();
    expect(unretired).toEqual([{ kid: kids[0] }]);
  });

  it('replaces a key that cannot be opened with the current secret instead of publishing it', async () => {
    const before = (await publicKey()).body.data.kid as string;
    const otherSecret = { db: db().withoutPlugins(), secret: randomBytes(32).toString('hex') };
    const after = await currentPublicKey(otherSecret);
    expect(after.kid).not.toBe(before);
    // Keys sealed under the other secret are useless to this server: it rotates again rather than publish them.
    forgetCachedKeys(db());
    const replaced = await encryptWithPublishedKey(server, user.password);
    expect([before, after.kid]).not.toContain(replaced.kid);
    expect((await signInWith(replaced.value)).status).toBe(200);
  });

  it('deletes keys retired more than a week ago when rotating', async () => {
    await db()
      .insertInto('auth_keys')
      .values({
        kid: 'ancient',
        public_jwk: JSON.stringify({ kty: 'RSA' }),
        private_key_enc: 'v1.x.y.z',
        created_at: ago(30 * 24 * HOUR),
        retired_at: ago(8 * 24 * HOUR),
      })
      .execute();
    const current = (await publicKey()).body.data.kid as string;
    await setKeyCreatedAt(current, ago(KEY_ROTATE_AFTER_MS + HOUR));
    forgetCachedKeys(db());
    await publicKey();
    expect(await db().selectFrom('auth_keys').select('kid').where('kid', '=', 'ancient').executeTakeFirst()).toBeUndefined();
  });
});
