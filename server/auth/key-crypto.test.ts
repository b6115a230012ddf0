import { webcrypto } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  decryptPassword,
  generateRsaKeyPair,
  keyEncryptionKey,
  newKid,
  openPrivateKey,
  parseEncryptedPassword,
  publicJwk,
  RSA_MODULUS_BITS,
  sealPrivateKey,
} from './key-crypto.js';

type Pair = Awaited<ReturnType<typeof generateRsaKeyPair>>;
let pair: Pair;
let other: Pair;

beforeAll(async () => {
  [pair, other] = await Promise.all([generateRsaKeyPair(), generateRsaKeyPair()]);
});

/** Exactly what the browser does: import the published JWK and encrypt the UTF-8 password. */
async function browserEncrypt(jwk: JsonWebKey, password: string): Promise<Buffer> {
  const key = await webcrypto.subtle.importKey('jwk', jwk, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  return Buffer.from(await webcrypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(password)));
}

describe('publicJwk + decryptPassword', () => {
  it('publishes a 2048-bit RSA-OAEP-256 key that WebCrypto encrypts with and the private key decrypts', async () => {
    const jwk = publicJwk(pair.publicKey, 'k1');
    expect(jwk).toMatchObject({ kty: 'RSA', alg: 'RSA-OAEP-256', e: 'AQAB', kid: 'k1', key_ops: ['encrypt'] });
    expect(Buffer.from(jwk.n, 'base64url').length * 8).toBe(RSA_MODULUS_BITS);
    expect(jwk).not.toHaveProperty('d');
    const password = 'pässwörd 🔑 पासवर्ड';
    const ciphertext = await browserEncrypt(jwk, password);
    expect(ciphertext.length).toBe(256);
    expect(decryptPassword(pair.privateKey, ciphertext)).toBe(password);
  });

  it('refuses a ciphertext made for another key, or altered', async () => {
    const ciphertext = await browserEncrypt(publicJwk(pair.publicKey, 'k1'), 'secret-password');
    expect(() => decryptPassword(other.privateKey, ciphertext)).toThrow();
    const altered = Buffer.from(ciphertext);
    altered[10] = (altered[10] ?? 0) ^ 0xff;
    expect(() => decryptPassword(pair.privateKey, altered)).toThrow();
  });
});

describe('sealPrivateKey / openPrivateKey', () => {
  const kek = keyEncryptionKey('a'.repeat(64));

  it('round-trips the private key', async () => {
    const sealed = sealPrivateKey(pair.privateKey, kek, 'kid-1');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('PRIVATE KEY');
    const opened = openPrivateKey(sealed, kek, 'kid-1');
    const ciphertext = await browserEncrypt(publicJwk(pair.publicKey, 'kid-1'), 'round trip');
    expect(decryptPassword(opened, ciphertext)).toBe('round trip');
  });

  it('uses a fresh IV every time', () => {
    expect(sealPrivateKey(pair.privateKey, kek, 'x')).not.toBe(sealPrivateKey(pair.privateKey, kek, 'x'));
  });

  it('fails with another secret, another kid, or altered text', () => {
    const sealed = sealPrivateKey(pair.privateKey, kek, 'kid-1');
    expect(() => openPrivateKey(sealed, keyEncryptionKey('b'.repeat(64)), 'kid-1')).toThrow();
    expect(() => openPrivateKey(sealed, kek, 'kid-2')).toThrow();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    expect(() => openPrivateKey([parts[0], parts[1], parts[2], body.toString('base64url')].join('.'), kek, 'kid-1')).toThrow();
    expect(() => openPrivateKey(`v0.${parts.slice(1).join('.')}`, kek, 'kid-1')).toThrow(/format/);
  });

  it('derives a stable 32-byte key per secret', () => {
    expect(keyEncryptionKey('s1'.repeat(20))).toEqual(keyEncryptionKey('s1'.repeat(20)));
    expect(keyEncryptionKey('s1'.repeat(20))).not.toEqual(keyEncryptionKey('s2'.repeat(20)));
    expect(kek.length).toBe(32);
  });
});

describe('parseEncryptedPassword', () => {
  it('reads enc:<kid>:<base64url>', () => {
    const parsed = parseEncryptedPassword('enc:abc_-1:AQID');
    expect(parsed?.kid).toBe('abc_-1');
    expect([...(parsed?.ciphertext ?? [])]).toEqual([1, 2, 3]);
  });

  it.each(['hunter2-password', 'enc:', 'enc:kid', 'enc:kid:', 'enc::AQID', 'enc:k:not base64!', 'ENC:k:AQID', 'xenc:k:AQID'])(
    'treats %j as a plain password',
    (value) => {
      expect(parseEncryptedPassword(value)).toBeNull();
    },
  );

  it('makes distinct URL-safe kids', () => {
    const kids = new Set(Array.from({ length: 50 }, newKid));
    expect(kids.size).toBe(50);
    for (const kid of kids) expect(kid).toMatch(/^[\w-]{12}$/);
  });
});
