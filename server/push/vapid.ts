import { existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { secureDataDir } from '../data-dir.js';
import type { Config } from '../env.js';

/** The server's identity towards the push services (VAPID, RFC 8292). */
export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

const KEYS_FILE = 'vapid-keys.json';

/**
 * VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when given (required in production, so
 * every instance signs with the same key); otherwise a pair generated once and
 * kept in DATA_DIR beside the app secret. A browser's subscription is bound to
 * the public key it was made with: changing the key silences every device
 * until it subscribes again.
 */
export function resolveVapidKeys(config: Config): VapidKeys {
  const subject = config.push.vapidSubject ?? defaultSubject(config);
  if (config.push.vapidPublicKey && config.push.vapidPrivateKey)
    return { publicKey: config.push.vapidPublicKey, privateKey: config.push.vapidPrivateKey, subject };
  const file = path.join(secureDataDir(config.dataDir), KEYS_FILE);
  if (!existsSync(file)) {
    // Written aside, then linked into place: a reader never sees half a file, and of two processes
    // starting together on one DATA_DIR the first link wins and the other reads it.
    const draft = `${file}.${process.pid}.${Date.now()}`;
    writeFileSync(draft, `${JSON.stringify(webpush.generateVAPIDKeys())}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(draft, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkSync(draft);
    }
  }
  const kept = JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
  return { publicKey: kept.publicKey, privateKey: kept.privateKey, subject };
}

/** PUBLIC_URL when it is https (what the push services expect), else MAIL_FROM's address. */
function defaultSubject(config: Config): string {
  if (config.publicUrl?.startsWith('https://')) return config.publicUrl;
  const address = /<([^>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom.trim();
  return `mailto:${address}`;
}
