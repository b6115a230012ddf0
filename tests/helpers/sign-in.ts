import type { TestServer } from './server.js';

/**
 * Signing in over the API: helpers shared by the auth test files. The servers run with TRUST_PROXY on,
 * so each test can sign in from its own IP (X-Forwarded-For) and the per-IP
 * limits of one test do not spill into the next.
 */
export const AUTH_TEST_ENV = { TRUST_PROXY: '1' };

let ipCounter = 0;
/** A fresh documentation-range IP (RFC 5737) for each caller. */
export function freshIp(): string {
  ipCounter += 1;
  return `198.51.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

export const fromIp = (ip: string) => ({ 'x-forwarded-for': ip });

/** Exactly what a browser does: import the published JWK with WebCrypto and encrypt the UTF-8 password. */
export async function encryptPassword(jwk: JsonWebKey, kid: string, password: string): Promise<string> {
  const key = await globalThis.crypto.subtle.importKey('jwk', jwk, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const ciphertext = await globalThis.crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(password));
  return `enc:${kid}:${Buffer.from(ciphertext).toString('base64url')}`;
}

/** Fetches the public key over REST and encrypts the password with it. */
export async function encryptWithPublishedKey(server: TestServer, password: string): Promise<{ kid: string; value: string }> {
  const res = await server.request('GET', '/api/auth/public-key');
  if (res.status !== 200) throw new Error(`public key: ${res.status} ${JSON.stringify(res.body)}`);
  const { kid, jwk } = res.body.data as { kid: string; jwk: JsonWebKey };
  return { kid, value: await encryptPassword(jwk, kid, password) };
}

/** The newest reset link mailed to this address, as the recipient received it (the outbox keeps it hidden). */
export async function lastResetToken(server: TestServer, email: string): Promise<string | null> {
  await server.deps.mailer.drain(); // forgot-password delivers after answering
  return server.lastLinkToken(email);
}

/** The newest set-password (or reset) link mailed to this address, as the recipient got it: its path and query. */
export async function setPasswordPath(server: TestServer, email: string): Promise<string> {
  const token = await lastResetToken(server, email);
  if (!token) throw new Error(`no set-password link in the mail to ${email}`);
  return `/reset-password?token=${encodeURIComponent(token)}`;
}
