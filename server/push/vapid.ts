import { createPrivateKey } from 'node:crypto';
import type { Kysely } from 'kysely';
import webpush from 'web-push';
import { keyEncryptionKey, openPrivateKey, sealPrivateKey } from '../auth/key-crypto.js';
import type { Database } from '../db/index.js';
import type { Config } from '../env.js';
import type { Logger } from '../logger.js';
import { findVapidKeys, insertVapidKeysUnlessPresent } from './repo.js';

/** The server's identity towards the push services (VAPID, RFC 8292). */
export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

/** The stored pair cannot be opened with this APP_SECRET: starting would silence every device, so the start stops. */
export class StoredVapidKeysUnreadableError extends Error {
  constructor() {
    super(
      'the web push key pair stored in the database (table push_vapid_keys) was sealed with another APP_SECRET. ' +
        'Start with the APP_SECRET it was made with, or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or delete that row ' +
        'to have a new pair made (every device then has to turn notifications on again).',
    );
    this.name = 'StoredVapidKeysUnreadableError';
  }
}

/**
 * VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when the operator sets them; otherwise
 * the pair kept in the database, made at the first start. Its private half is
 * sealed as the sign-in keys are (key-crypto.ts, under APP_SECRET), so every
 * instance with the same APP_SECRET signs with the same pair and nothing else
 * needs to be set. Of instances starting together on a fresh database the
 * first insert wins and the others read it. A browser's subscription is bound
 * to the public key it was made with: changing the pair silences every device
 * until it subscribes again. Runs after the migrations.
 */
export async function resolveVapidKeys(config: Config, db: Kysely<Database>, secret: string, logger?: Logger): Promise<VapidKeys> {
  const subject = config.push.vapidSubject ?? defaultSubject(config);
  if (config.push.vapidPublicKey && config.push.vapidPrivateKey)
    return { publicKey: config.push.vapidPublicKey, privateKey: config.push.vapidPrivateKey, subject };
  const kek = keyEncryptionKey(secret);
  let stored = await findVapidKeys(db);
  if (!stored) {
    const fresh = webpush.generateVAPIDKeys();
    const made = await insertVapidKeysUnlessPresent(db, {
      public_key: fresh.publicKey,
      private_key_sealed: sealPrivateKey(privateKeyObject(fresh), kek, sealedKeyId(fresh.publicKey)),
    });
    if (made) logger?.info('web push keys made and stored in the database, sealed with APP_SECRET');
    stored = await findVapidKeys(db);
    if (!stored) throw new Error('the web push key pair was stored but cannot be read back');
  }
  let privateKey: string | undefined;
  try {
    privateKey = openPrivateKey(stored.private_key_sealed, kek, sealedKeyId(stored.public_key)).export({ format: 'jwk' }).d;
  } catch {
    throw new StoredVapidKeysUnreadableError();
  }
  if (!privateKey) throw new StoredVapidKeysUnreadableError();
  return { publicKey: stored.public_key, privateKey, subject };
}

/** The seal names the public key: a sealed private key cannot be paired with another public key, or moved to another table's row. */
const sealedKeyId = (publicKey: string) => `vapid:${publicKey}`;

/** web-push's pair (URL-safe base64: the uncompressed public point, the private scalar) as a key object to seal. */
function privateKeyObject(pair: { publicKey: string; privateKey: string }) {
  const point = Buffer.from(pair.publicKey, 'base64url');
  return createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
      d: pair.privateKey,
    },
    format: 'jwk',
  });
}

/** PUBLIC_URL when it is https (what the push services expect), else MAIL_FROM's address. */
function defaultSubject(config: Config): string {
  if (config.publicUrl?.startsWith('https://')) return config.publicUrl;
  const address = /<([^>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom.trim();
  return `mailto:${address}`;
}
