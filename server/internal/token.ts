import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The secret that lets a local command (npm run user:create) talk to the
 * running server over loopback. A new one is written at every start, readable
 * by the owner of DATA_DIR only, and removed on shutdown.
 */
export const INTERNAL_TOKEN_FILE = 'internal-token';

const tokenPath = (dataDir: string) => path.join(path.resolve(dataDir), INTERNAL_TOKEN_FILE);

export function writeInternalToken(dataDir: string): string {
  const token = randomBytes(32).toString('base64url');
  const file = tokenPath(dataDir);
  const draft = `${file}.${process.pid}.tmp`;
  writeFileSync(draft, `${token}\n`, { mode: 0o600 });
  renameSync(draft, file);
  return token;
}

export function readInternalToken(dataDir: string): string {
  const file = tokenPath(dataDir);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES') throw new Error(`Cannot read ${file}: run this command as the user that runs the server.`);
    if (code === 'ENOENT')
      throw new Error(`The running server has not written ${file} yet (or is an older version): try again in a moment.`);
    throw err;
  }
}

export function removeInternalToken(dataDir: string) {
  try {
    unlinkSync(tokenPath(dataDir));
  } catch {}
}

/** Constant-time comparison of a presented token with the expected one. */
export function tokenMatches(presented: string | null | undefined, expected: string): boolean {
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
