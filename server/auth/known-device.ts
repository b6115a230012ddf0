import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A known device: the proof, kept by a browser, that it signed in to an
 * account before (decision 026). A sign-in that carries a valid one is
 * counted against that device's own limit instead of the account's, so
 * someone who hammers an account with wrong passwords locks out only the
 * devices they use, never the owner's.
 *
 * Stateless: `kd1.<userId>.<issued>.<id>.<mac>`, the MAC keyed by the app
 * secret over the user's current password hash, so a password change (reset,
 * set-password link, change) makes every earlier device token worthless.
 */
export const KNOWN_DEVICE_TTL_MS = 180 * 24 * 60 * 60_000;
const PREFIX = 'kd1';

function mac(secret: string, userId: number, issued: number, id: string, passwordHash: string): Buffer {
  return createHmac('sha256', `${secret}:known-device`).update(`${userId}\n${issued}\n${id}\n${passwordHash}`).digest();
}

export function issueDeviceToken(secret: string, user: { id: number; password_hash: string }, now = new Date()): string {
  const issued = Math.floor(now.getTime() / 1000);
  const id = randomBytes(12).toString('base64url');
  return [PREFIX, user.id, issued, id, mac(secret, user.id, issued, id, user.password_hash).toString('base64url')].join('.');
}

/** The device's id when the token is genuine, for this user and password, and not expired; otherwise null. */
export function verifyDeviceToken(
  secret: string,
  user: { id: number; password_hash: string | null },
  token: string,
  now = new Date(),
): string | null {
  const [prefix, userText, issuedText, id, macText, ...rest] = token.split('.');
  if (prefix !== PREFIX || !userText || !issuedText || !id || !macText || rest.length > 0 || !user.password_hash) return null;
  const issued = Number(issuedText);
  if (Number(userText) !== user.id || !Number.isSafeInteger(issued)) return null;
  if (now.getTime() - issued * 1000 > KNOWN_DEVICE_TTL_MS || issued * 1000 > now.getTime() + 60_000) return null;
  const expected = mac(secret, user.id, issued, id, user.password_hash);
  const given = Buffer.from(macText, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
