import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, acquireDataDirLock, isProcessAlive, liveHolder, lockPath, readLock } from '../../server/db/lock.js';
import { createTestDatabase } from '../helpers/db.js';
import { startServerProcess, tempDataDir } from '../helpers/processes.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

function dataDir() {
  const t = tempDataDir();
  cleanups.push(t.remove);
  return t.dir;
}

/** A pid that existed a moment ago and no longer does. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  const pid = Number(child.stdout);
  expect(isProcessAlive(pid)).toBe(false);
  return pid;
}

describe('the data directory lock', () => {
  it('is taken atomically with the holder’s pid and start time, and released', () => {
    const dir = dataDir();
    const lock = acquireDataDirLock(dir, { holder: 'server', host: '127.0.0.1' });
    const holder = readLock(dir);
    expect(holder).toEqual({ pid: process.pid, port: null, host: '127.0.0.1', started: expect.any(String), holder: 'server' });
    expect(Date.now() - Date.parse(holder!.started)).toBeLessThan(60_000);
    lock.update({ port: 4321, host: '127.0.0.1' });
    expect(readLock(dir)?.port).toBe(4321);
    expect(liveHolder(dir)?.pid).toBe(process.pid);
    lock.release();
    expect(existsSync(lockPath(dir))).toBe(false);
    expect(liveHolder(dir)).toBeNull();
    lock.release();
  });

  it('refuses a second holder while the first is alive, naming its pid', () => {
    const dir = dataDir();
    const lock = acquireDataDirLock(dir, { holder: 'server' });
    cleanups.push(() => lock.release());
    let error: unknown;
    try {
      acquireDataDirLock(dir, { holder: 'cli' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toContain(`process ${process.pid}`);
    expect((error as Error).message).toContain(path.resolve(dir));
    expect((error as DataDirLockedError).holderInfo.pid).toBe(process.pid);
  });

  it('replaces a stale lock left by a process that died', () => {
    const dir = dataDir();
    const pid = deadPid();
    writeFileSync(lockPath(dir), JSON.stringify({ pid, port: 3000, host: '127.0.0.1', started: '2026-01-01T00:00:00.000Z' }));
    expect(liveHolder(dir)).toBeNull();
    const lock = acquireDataDirLock(dir, { holder: 'server' });
    cleanups.push(() => lock.release());
    expect(readLock(dir)?.pid).toBe(process.pid);
    expect(existsSync(`${lockPath(dir)}.break`)).toBe(false);
  });

  it('treats a lock with our own pid that we do not hold as stale (a pid reused after a container restart)', () => {
    const dir = dataDir();
    writeFileSync(lockPath(dir), JSON.stringify({ pid: process.pid, port: 3000, host: null, started: '2026-01-01T00:00:00.000Z' }));
    const lock = acquireDataDirLock(dir, { holder: 'server' });
    cleanups.push(() => lock.release());
    expect(readLock(dir)?.started).not.toBe('2026-01-01T00:00:00.000Z');
  });

  it('treats an unreadable lock file as stale', () => {
    const dir = dataDir();
    writeFileSync(lockPath(dir), 'not json');
    const lock = acquireDataDirLock(dir, { holder: 'server' });
    cleanups.push(() => lock.release());
    expect(readLock(dir)?.pid).toBe(process.pid);
  });

  it('does not remove a lock that someone else took after ours was broken', () => {
    const dir = dataDir();
    const lock = acquireDataDirLock(dir, { holder: 'server' });
    const other = { pid: process.ppid, port: null, host: null, started: new Date().toISOString(), holder: 'server' };
    writeFileSync(lockPath(dir), JSON.stringify(other));
    lock.release();
    expect(readLock(dir)?.pid).toBe(process.ppid);
  });
});

/** Server processes start slowly on a busy machine (the first open of a data directory runs initdb). */
const PROCESS_TEST = { timeout: 240_000 };

describe('the server and its lock', () => {
  // One data directory for the whole block: initdb runs once.
  const shared = tempDataDir();
  afterAll(() => shared.remove());

  it('holds DATA_DIR while running, refuses a second server, and releases on SIGTERM', PROCESS_TEST, async () => {
    const dir = shared.dir;
    const first = await startServerProcess({ DATA_DIR: dir });
    cleanups.push(() => first.stop('SIGKILL'));

    const holder = readLock(dir);
    expect(holder).toMatchObject({ pid: first.pid, host: '127.0.0.1', holder: 'server' });
    expect(first.url).toBe(`http://127.0.0.1:${holder!.port}`);
    const tokenFile = path.join(dir, 'internal-token');
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);

    const second = await startServerProcess({ DATA_DIR: dir }).then(
      () => null,
      (err: Error) => err.message,
    );
    expect(second).toContain('exited (code 1)');
    expect(second).toContain(`in use by a Poshan server, process ${first.pid}`);
    expect(second).toContain(`stop process ${first.pid} first`);
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);

    const result = await first.stop('SIGTERM');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('SIGTERM received: closing connections and the database…');
    expect(result.stdout).toContain('Poshan stopped.');
    expect(existsSync(lockPath(dir))).toBe(false);
    expect(existsSync(tokenFile)).toBe(false);
  });

  it('starts over a stale lock left by a killed server, keeping the data', PROCESS_TEST, async () => {
    const dir = shared.dir;
    const first = await startServerProcess({ DATA_DIR: dir });
    const killed = await first.stop('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    expect(readLock(dir)?.pid).toBe(first.pid);
    const secret = readFileSync(path.join(dir, 'app-secret'), 'utf8');

    const second = await startServerProcess({ DATA_DIR: dir });
    cleanups.push(() => second.stop('SIGKILL'));
    expect(readLock(dir)?.pid).toBe(second.pid);
    expect(readFileSync(path.join(dir, 'app-secret'), 'utf8')).toBe(secret);
    expect((await fetch(`${second.url}/readyz`)).status).toBe(200);
    expect((await second.stop('SIGINT')).code).toBe(0);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'takes no lock with DATABASE_URL (runs when TEST_DATABASE_URL is set)',
    PROCESS_TEST,
    async () => {
      const database = await createTestDatabase();
      cleanups.push(() => database.close());
      const dir = dataDir();
      const server = await startServerProcess({ DATA_DIR: dir, DATABASE_URL: database.url });
      cleanups.push(() => server.stop('SIGKILL'));
      expect(server.output()).toContain('Database: Postgres at 127.0.0.1:5432/poshan_test_');
      expect(existsSync(lockPath(dir))).toBe(false);
      expect(existsSync(path.join(dir, 'internal-token'))).toBe(false);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    },
  );
});
