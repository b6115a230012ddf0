import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './env.js';

/**
 * APP_SECRET when given; otherwise a secret generated once and kept in
 * DATA_DIR (readable by the owner only), so restarts keep sessions and keys.
 */
export function resolveAppSecret(config: Config): string {
  if (config.appSecret) return config.appSecret;
  const dir = path.resolve(config.dataDir);
  const file = path.join(dir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}
