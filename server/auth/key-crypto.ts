import {
  type KeyObject,
  constants,
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  generateKeyPair,
  hkdfSync,
  privateDecrypt,
  randomBytes,
} from 'node:crypto';

/**
 * The crypto behind "passwords are encrypted on the client": RSA-OAEP with
 * SHA-256 (what WebCrypto's `{ name: 'RSA-OAEP', hash: 'SHA-256' }` does),
 * 2048-bit keys, and private keys sealed at rest with AES-256-GCM under a key
 * derived from the app secret. Pure functions; the key ring in keys.ts stores
 * and rotates them.
 */

export const RSA_MODULUS_BITS = 2048;
const SEAL_VERSION = 'v1';
const ENCRYPTED_PASSWORD = /^enc:([A-Za-z0-9_-]{1,64}):([A-Za-z0-9_-]+={0,2})$/;

/** The AES-256 key that seals private keys, derived from the app secret (HKDF-SHA256). */
export function keyEncryptionKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'poshan/auth-keys', 'rsa-oaep private key sealing v1', 32));
}

export function newKid(): string {
  return randomBytes(9).toString('base64url');
}

export function generateRsaKeyPair(): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> {
  return new Promise((resolve, reject) =>
    generateKeyPair('rsa', { modulusLength: RSA_MODULUS_BITS, publicExponent: 0x10001 }, (err, publicKey, privateKey) =>
      err ? reject(err) : resolve({ publicKey, privateKey }),
    ),
  );
}

/** The public key as a JWK that WebCrypto imports for `encrypt` with RSA-OAEP/SHA-256. */
export function publicJwk(publicKey: KeyObject, kid: string) {
  const { kty, n, e } = publicKey.export({ format: 'jwk' });
  if (kty !== 'RSA' || !n || !e) throw new Error('expected an RSA public key');
  return { kty: 'RSA' as const, n, e, alg: 'RSA-OAEP-256' as const, use: 'enc', key_ops: ['encrypt'], ext: true, kid };
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64url); the kid is authenticated data, so a sealed key cannot be moved to another row. */
export function sealPrivateKey(privateKey: KeyObject, kek: Buffer, kid: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', kek, iv);
  cipher.setAAD(Buffer.from(kid));
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  const body = Buffer.concat([cipher.update(der), cipher.final()]);
  return [SEAL_VERSION, iv, cipher.getAuthTag(), body]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Throws when the secret or kid differs from the ones it was sealed with, or the text was altered. */
export function openPrivateKey(sealed: string, kek: Buffer, kid: string): KeyObject {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== SEAL_VERSION || !iv || !tag || !body) throw new Error('unknown sealed key format');
  const decipher = createDecipheriv('aes-256-gcm', kek, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(kid));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const der = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
}

/** `enc:<kid>:<base64url ciphertext>` → its parts; anything else is a plain password (null). */
export function parseEncryptedPassword(value: string): { kid: string; ciphertext: Buffer } | null {
  const match = ENCRYPTED_PASSWORD.exec(value);
  if (!match) return null;
  return { kid: match[1]!, ciphertext: Buffer.from(match[2]!, 'base64url') };
}

/** RSA-OAEP (SHA-256 for the hash and MGF1) → the UTF-8 password. Throws on a bad ciphertext. */
export function decryptPassword(privateKey: KeyObject, ciphertext: Buffer): string {
  const plain = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, ciphertext);
  return new TextDecoder('utf-8', { fatal: true }).decode(plain);
}
