import { statfs } from 'node:fs/promises';

/**
 * A full disk under the database: Postgres (and the embedded PGlite, which is
 * Postgres) answers SQLSTATE 53100 ("could not extend file ...: No space left
 * on device") to a write, while reads keep working. That is not a bug in the
 * request (500) and not an outage that passes in seconds: the person is told
 * to try later, and readiness says the instance cannot take writes.
 */

export const DISK_FULL_MESSAGE = 'The server cannot save right now: its disk is full. Try again later.';
/** A full disk needs a person to free space: clients wait longer than for an outage. */
export const DISK_FULL_RETRY_AFTER_SECONDS = 60;

/** 53100 disk_full from Postgres; ENOSPC from the file system itself. */
const DISK_FULL_CODES = new Set(['53100', 'ENOSPC']);
const DISK_FULL_TEXT = /No space left on device|could not extend file/i;

export function isDiskFull(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && DISK_FULL_CODES.has(e.code)) return true;
  if (typeof e.message === 'string' && DISK_FULL_TEXT.test(e.message)) return true;
  return isDiskFull(e.cause, depth + 1);
}

/**
 * After a write failed for a full disk, readiness stays 503 until the disk
 * can take writes again: a write succeeded since, or (the embedded database,
 * whose files are ours to look at) its directory has room again, or (Postgres,
 * whose disk this process cannot see) a while passed without another such
 * failure, so that instances which all went not-ready get traffic to try again.
 */
export type WriteHealth = {
  failedForDiskFull(): void;
  succeeded(): void;
  /** The reason the instance cannot take writes, or null. */
  problem(): Promise<string | null>;
};

/** Free space the embedded database needs before it is ready again after a full disk (a WAL segment and some pages). */
const EMBEDDED_FREE_BYTES = 32 * 1024 * 1024;
/** Without a look at the disk, how long an instance stays not-ready after its last disk-full failure. */
const REMOTE_RECHECK_MS = 30_000;

export function createWriteHealth(opts: { dataDir?: string; now?: () => number } = {}): WriteHealth {
  const now = opts.now ?? Date.now;
  let failedAt: number | null = null;
  return {
    failedForDiskFull() {
      failedAt = now();
    },
    succeeded() {
      failedAt = null;
    },
    async problem() {
      if (failedAt === null) return null;
      if (opts.dataDir) {
        const fs = await statfs(opts.dataDir).catch(() => null);
        if (fs && fs.bavail * fs.bsize >= EMBEDDED_FREE_BYTES) failedAt = null;
      } else if (now() - failedAt >= REMOTE_RECHECK_MS) failedAt = null;
      return failedAt === null ? null : DISK_FULL_MESSAGE;
    },
  };
}
