import { linkSync, mkdirSync, openSync, closeSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * PGlite lets only one process open a data directory; a second opener does not
 * fail, it silently diverges. The server (and the CLI when no server runs)
 * therefore holds DATA_DIR/server.lock while the database is open.
 *
 * The lock file appears atomically with its whole content: it is written under
 * a private name and hard-linked into place, and link(2) fails when the name
 * exists, exactly like O_EXCL. A lock whose pid is no longer alive is stale and
 * is removed under a short-lived second lock, so two processes breaking the
 * same stale lock cannot both win.
 */

export const LOCK_FILE = 'server.lock';

export type LockHolder = {
  pid: number;
  /** The HTTP port once the server listens; null while it starts, or for the CLI. */
  port: number | null;
  host: string | null;
  /** ISO time the holder took the lock. */
  started: string;
  /** What holds the lock: the server, or the CLI working on the directory itself. */
  holder: 'server' | 'cli';
};

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderInfo: LockHolder,
  ) {
    const what = holderInfo.holder === 'cli' ? 'a user:create command' : 'a Poshan server';
    const where = holderInfo.port ? ` (listening on ${holderInfo.host ?? '127.0.0.1'}:${holderInfo.port})` : '';
    super(
      `The data directory ${dataDir} is in use by ${what}, process ${holderInfo.pid}${where}, since ${holderInfo.started}. ` +
        `Only one process may open the embedded database: stop process ${holderInfo.pid} first, or set DATA_DIR to another directory. ` +
        `If no such process is running, delete ${path.join(dataDir, LOCK_FILE)}.`,
    );
    this.name = 'DataDirLockedError';
  }
}

/** Paths locked by this process, so a stale lock that happens to carry our own (reused) pid is recognised. */
const heldHere = new Set<string>();

export function lockPath(dataDir: string) {
  return path.join(path.resolve(dataDir), LOCK_FILE);
}

/** Whether a process with this pid exists (EPERM: it exists but belongs to someone else). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseHolder(text: string): LockHolder | null {
  try {
    const v = JSON.parse(text) as Partial<LockHolder>;
    if (typeof v.pid !== 'number' || typeof v.started !== 'string') return null;
    return {
      pid: v.pid,
      port: typeof v.port === 'number' ? v.port : null,
      host: typeof v.host === 'string' ? v.host : null,
      started: v.started,
      holder: v.holder === 'cli' ? 'cli' : 'server',
    };
  } catch {
    return null;
  }
}

/** The lock file's content, or null when there is none (or it cannot be read as a lock). */
export function readLock(dataDir: string): LockHolder | null {
  try {
    return parseHolder(readFileSync(lockPath(dataDir), 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The live process holding the directory, if any (a stale lock counts as none). */
export function liveHolder(dataDir: string): LockHolder | null {
  const holder = readLock(dataDir);
  if (!holder) return null;
  if (holder.pid === process.pid) return heldHere.has(lockPath(dataDir)) ? holder : null;
  return isProcessAlive(holder.pid) ? holder : null;
}

export type DataDirLock = {
  readonly file: string;
  /** Records where the server listens, so the CLI can find it. */
  update(info: { port: number; host: string }): void;
  /** Removes the lock if it is still ours. Safe to call more than once. */
  release(): void;
};

const BREAKER_STALE_MS = 10_000;

/**
 * Takes the data directory's lock or throws DataDirLockedError naming the
 * live holder. Creates the directory if needed.
 */
export function acquireDataDirLock(
  dataDir: string,
  opts: { holder: LockHolder['holder']; host?: string | null } = { holder: 'server' },
): DataDirLock {
  const dir = path.resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const file = lockPath(dir);
  const mine: LockHolder = {
    pid: process.pid,
    port: null,
    host: opts.host ?? null,
    started: new Date().toISOString(),
    holder: opts.holder,
  };
  const draft = `${file}.${process.pid}.tmp`;

  for (let attempt = 0; attempt < 20; attempt += 1) {
    writeFileSync(draft, JSON.stringify(mine), { mode: 0o644 });
    try {
      linkSync(draft, file);
      unlinkSync(draft);
      heldHere.add(file);
      return handle(file, mine);
    } catch (err) {
      unlinkSync(draft);
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const current = readLock(dir);
    if (current && (current.pid === process.pid ? heldHere.has(file) : isProcessAlive(current.pid))) {
      throw new DataDirLockedError(dir, current);
    }
    breakStaleLock(file, current);
  }
  throw new Error(`Could not take the lock ${file}: it keeps changing. Is another Poshan process starting at the same time?`);
}

/** Removes `file` only if it still holds the stale content we saw, under an exclusive breaker file. */
function breakStaleLock(file: string, seen: LockHolder | null) {
  const breaker = `${file}.break`;
  let fd: number;
  try {
    fd = openSync(breaker, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another process is breaking it right now; a breaker left by a crash expires.
    try {
      if (Date.now() - statSync(breaker).mtimeMs > BREAKER_STALE_MS) unlinkSync(breaker);
    } catch {}
    sleepSync(50);
    return;
  }
  try {
    const again = readLock(path.dirname(file));
    if (JSON.stringify(again) === JSON.stringify(seen)) {
      try {
        unlinkSync(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
  } finally {
    closeSync(fd);
    unlinkSync(breaker);
  }
}

function sleepSync(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function handle(file: string, mine: LockHolder): DataDirLock {
  let released = false;
  const stillOurs = () => readLock(path.dirname(file))?.pid === process.pid && heldHere.has(file);
  const onExit = () => release();
  function release() {
    if (released) return;
    released = true;
    process.off('exit', onExit);
    try {
      if (stillOurs()) unlinkSync(file);
    } catch {}
    heldHere.delete(file);
  }
  // Whatever ends the process (process.exit, an uncaught error), the lock goes with it;
  // only SIGKILL or a power cut leave a stale lock, which the next start removes.
  process.on('exit', onExit);
  return {
    file,
    update(info) {
      if (released) return;
      const next = `${file}.${process.pid}.tmp`;
      writeFileSync(next, JSON.stringify({ ...mine, port: info.port, host: info.host }), { mode: 0o644 });
      renameSync(next, file);
    },
    release,
  };
}
