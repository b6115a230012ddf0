import type { KeyObject } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/index.js';
import { AppError } from '../errors.js';
import {
  decryptPassword,
  generateRsaKeyPair,
  keyEncryptionKey,
  newKid,
  openPrivateKey,
  parseEncryptedPassword,
  publicJwk,
  sealPrivateKey,
} from './key-crypto.js';
import { findNewestUnretiredKey, findSealedKey, lockKeyRing, replaceCurrentKey } from './keys-repo.js';
import type { PublicKey } from './schema.js';

/**
 * The key ring for client-side password encryption, shared by every instance
 * through the auth_keys table:
 * - the newest unretired key is published for KEY_ROTATE_AFTER_MS; the first
 *   request after that makes a new key and retires the old one;
 * - a retired key still decrypts for KEY_GRACE_MS, so a login form opened
 *   just before the rotation still works;
 * - concurrent rotations (several instances) serialise on a transaction-level
 *   advisory lock and re-check inside it, so exactly one new key is made.
 */
export const KEY_ROTATE_AFTER_MS = 24 * 60 * 60 * 1000;
export const KEY_GRACE_MS = 60 * 60 * 1000;
/** Retired keys are deleted this long after retirement (they cannot decrypt anything by then). */
const KEY_DELETE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;
const PUBLISH_CACHE_MS = 30_000;
const PRIVATE_CACHE_SIZE = 8;

export const STALE_KEY_MESSAGE =
  'The password was encrypted with a key that is no longer in use. Fetch the current public key and try again.';
const UNREADABLE_MESSAGE = 'The encrypted password could not be read. Fetch the current public key and encrypt the password again.';

type Published = PublicKey & { createdAt: Date; cachedAt: number };
type Ring = { kek: Buffer; published?: Published; rotating?: Promise<Published>; privateKeys: Map<string, KeyObject> };

/** One ring per database (each test server has its own). */
const rings = new WeakMap<object, Ring>();
function ringFor(db: Db, secret: string): Ring {
  let ring = rings.get(db);
  if (!ring) {
    ring = { kek: keyEncryptionKey(secret), privateKeys: new Map() };
    rings.set(db, ring);
  }
  return ring;
}

/** Drops the in-memory cache (tests that move key times in the table). */
export function forgetCachedKeys(db: Db) {
  rings.delete(db);
}

const isFresh = (createdAt: Date, now: Date) => createdAt.getTime() + KEY_ROTATE_AFTER_MS > now.getTime();

function toPublished(row: { kid: string; public_jwk: JsonWebKey; created_at: Date }, now: Date): Published {
  return { kid: row.kid, jwk: row.public_jwk as PublicKey['jwk'], createdAt: row.created_at, cachedAt: now.getTime() };
}

type KeyDeps = { db: Kysely<Database>; secret: string };

/** The key browsers should encrypt with now, made on first use and rotated lazily. */
export async function currentPublicKey(deps: KeyDeps & { logger?: { warn(msg: string): void } }, now = new Date()): Promise<PublicKey> {
  const ring = ringFor(deps.db, deps.secret);
  const cached = ring.published;
  if (cached && cached.cachedAt + PUBLISH_CACHE_MS > now.getTime() && isFresh(cached.createdAt, now)) {
    return { kid: cached.kid, jwk: cached.jwk };
  }
  const row = await findNewestUnretiredKey(deps.db);
  const fresh = row && isFresh(row.created_at, now) ? row : undefined;
  const unusableKid = fresh && !(await openable(deps.db, ring, fresh.kid)) ? fresh.kid : undefined;
  let published: Published;
  if (fresh && !unusableKid) {
    published = toPublished(fresh, now);
  } else {
    if (unusableKid) deps.logger?.warn(`auth key ${unusableKid} cannot be opened with the current APP_SECRET; replacing it`);
    // One rotation at a time in this process; other instances are handled by the lock.
    ring.rotating ??= rotate(deps.db, ring, now, unusableKid).finally(() => {
      ring.rotating = undefined;
    });
    published = await ring.rotating;
  }
  ring.published = published;
  return { kid: published.kid, jwk: published.jwk };
}

/** A key sealed under another APP_SECRET cannot decrypt anything, so it must not be published. */
async function openable(db: Db, ring: Ring, kid: string): Promise<boolean> {
  if (ring.privateKeys.has(kid)) return true;
  const row = await findSealedKey(db, kid);
  return Boolean(row && cachePrivateKey(ring, kid, row.private_key_enc));
}

function cachePrivateKey(ring: Ring, kid: string, sealed: string): KeyObject | null {
  let key: KeyObject;
  try {
    key = openPrivateKey(sealed, ring.kek, kid);
  } catch {
    return null;
  }
  if (ring.privateKeys.size >= PRIVATE_CACHE_SIZE) ring.privateKeys.delete(ring.privateKeys.keys().next().value!);
  ring.privateKeys.set(kid, key);
  return key;
}

/**
 * Makes a new current key and retires the others, unless another instance
 * already made a fresh one (it is reused, except `unusableKid`).
 */
async function rotate(db: Kysely<Database>, ring: Ring, now: Date, unusableKid?: string): Promise<Published> {
  // Generated before taking the lock (it takes a moment); discarded if another instance wins.
  const { publicKey, privateKey } = await generateRsaKeyPair();
  const kid = newKid();
  return db.transaction().execute(async (trx) => {
    await lockKeyRing(trx);
    const current = await findNewestUnretiredKey(trx);
    if (current && isFresh(current.created_at, now) && current.kid !== unusableKid) return toPublished(current, now);
    const row = await replaceCurrentKey(trx, {
      kid,
      publicJwk: publicJwk(publicKey, kid),
      sealedPrivateKey: sealPrivateKey(privateKey, ring.kek, kid),
      now,
      deleteRetiredBefore: new Date(now.getTime() - KEY_DELETE_AFTER_MS),
    });
    return toPublished(row, now);
  });
}

/** The private key for a kid, if that key may still decrypt (current, or retired less than the grace period ago). */
async function usablePrivateKey(db: Db, ring: Ring, kid: string, now: Date): Promise<KeyObject | null> {
  const row = await findSealedKey(db, kid);
  if (!row) return null;
  if (row.retired_at && row.retired_at.getTime() + KEY_GRACE_MS <= now.getTime()) return null;
  return ring.privateKeys.get(kid) ?? cachePrivateKey(ring, kid, row.private_key_enc);
}

/**
 * The password as typed: `enc:<kid>:<ciphertext>` is decrypted, anything
 * else is taken as a plain password (REST integrations over TLS).
 */
export async function plainPassword(deps: KeyDeps, password: string, now = new Date()): Promise<string> {
  const encrypted = parseEncryptedPassword(password);
  if (!encrypted) return password;
  const ring = ringFor(deps.db, deps.secret);
  const key = await usablePrivateKey(deps.db, ring, encrypted.kid, now);
  if (!key) throw new AppError('BAD_REQUEST', STALE_KEY_MESSAGE, { fieldErrors: { password: [STALE_KEY_MESSAGE] } });
  try {
    return decryptPassword(key, encrypted.ciphertext);
  } catch {
    throw new AppError('BAD_REQUEST', UNREADABLE_MESSAGE, { fieldErrors: { password: [UNREADABLE_MESSAGE] } });
  }
}
