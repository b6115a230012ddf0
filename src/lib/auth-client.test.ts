import { describe, expect, it } from 'vitest';
import { decryptPassword, generateRsaKeyPair, parseEncryptedPassword, publicJwk } from '../../server/auth/key-crypto';
import { encryptPassword, signedOutPath } from './auth-client';

describe('encryptPassword', () => {
  it('produces enc:<kid>:<base64url> that the server decrypts back to the password', async () => {
    const { publicKey, privateKey } = await generateRsaKeyPair();
    const kid = 'test-kid_1';
    const password = 'pässwörd with ₹ and emoji 🙂';
    const sent = await encryptPassword({ kid, jwk: publicJwk(publicKey, kid) }, password);

    expect(sent).toMatch(/^enc:test-kid_1:[A-Za-z0-9_-]+$/);
    expect(sent).not.toContain(password);
    const parsed = parseEncryptedPassword(sent);
    expect(parsed?.kid).toBe(kid);
    expect(parsed?.ciphertext.byteLength).toBe(256);
    expect(decryptPassword(privateKey, parsed!.ciphertext)).toBe(password);
  });

  it('encrypts the same password differently each time (OAEP is randomised)', async () => {
    const { publicKey } = await generateRsaKeyPair();
    const key = { kid: 'k', jwk: publicJwk(publicKey, 'k') };
    expect(await encryptPassword(key, 'same')).not.toBe(await encryptPassword(key, 'same'));
  });
});

describe('signedOutPath', () => {
  it('sends the console back to its own sign-in and everything else to the root', () => {
    expect(signedOutPath('/admin')).toBe('/admin/login');
    expect(signedOutPath('/admin/clients/12')).toBe('/admin/login');
    expect(signedOutPath('/administrators')).toBe('/');
    expect(signedOutPath('/dashboard/feeds')).toBe('/');
    expect(signedOutPath('/login')).toBe('/');
  });
});
