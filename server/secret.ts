import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { secureDataDir } from './data-dir.js';
import type { Config } from './env.js';

/**
 * APP_SECRET when given; otherwise a secret generated once and kept in
 * DATA_DIR (readable by the owner only), so restarts keep sessions and keys.
 */
export function resolveAppSecret(config: Config): string {
  if (config.appSecret) return config.appSecret;
  const dir = secureDataDir(config.dataDir);
  const file = path.join(dir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}
