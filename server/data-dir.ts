import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/** Files in DATA_DIR that are secrets: readable by the server's user only. */
export const DATA_DIR_SECRETS = ['app-secret', 'internal-token', 'vapid-keys.json'];

/**
 * DATA_DIR holds the embedded database and the generated secrets: only the
 * user that runs the server may enter it (0700) or read the secrets (0600).
 * Directories and files made by an older version are tightened at start too.
 */
export function secureDataDir(dataDir: string): string {
  const dir = path.resolve(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  for (const name of DATA_DIR_SECRETS) {
    const file = path.join(dir, name);
    if (existsSync(file)) chmodSync(file, 0o600);
  }
  return dir;
}
