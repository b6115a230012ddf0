import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPglite } from '../../server/db/connect.js';
import type { DbHandle } from '../../server/db/index.js';
import { loadConfig } from '../../server/env.js';
import { createDeps, listen, type RunningServer } from '../../server/server.js';

/**
 * The embedded database on a disk that fills up: a real file system of its
 * own (a small tmpfs, mounted here, so the test needs root: elsewhere it is
 * skipped and says why), filled by another file until writes fail.
 */

const run = promisify(execFile);
const mountPoint = mkdtempSync(path.join(tmpdir(), 'poshan-disk-full-'));
const canMount = await run('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', mountPoint]).then(
  () => true,
  (err: Error) => {
    console.warn(`disk-full tests skipped: cannot mount a small tmpfs here (${err.message.split('\n')[0]})`);
    return false;
  },
);
const filler = path.join(mountPoint, 'filler');

describe.skipIf(!canMount)('the embedded database with a full disk', () => {
  let handle: DbHandle;
  let server: RunningServer;
  beforeAll(async () => {
    const dataDir = path.join(mountPoint, 'data');
    handle = await connectPglite(dataDir);
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: '0', DATA_DIR: dataDir });
    const deps = await createDeps(config, handle, randomBytes(32).toString('hex'));
    server = await listen(deps, { port: 0, host: '127.0.0.1', serveClient: false });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await handle?.close();
    if (canMount) await run('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  const supportRequest = (n: number) =>
    fetch(`${server.url}/api/support/create-support-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Full Disk', email: `full${n}@example.test`, message: 'Sent while the disk is full of other files.' }),
    });
  const readiness = async () => {
    const res = await fetch(`${server.url}/readyz`);
    return { status: res.status, body: (await res.json()) as { message: string } };
  };

  it('answers a write 503 with a message a person can act on, is not ready meanwhile, and recovers when space returns', async () => {
    expect((await readiness()).status).toBe(200);
    // Fill every free block (dd stops at ENOSPC and says so).
    await run('dd', ['if=/dev/zero', `of=${filler}`, 'bs=1M']).catch(() => undefined);

    const refused = await supportRequest(1);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refused.json()).toMatchObject({
      status: 503,
      message: 'The server cannot save right now: its disk is full. Try again later.',
    });
    expect(await readiness()).toEqual({
      status: 503,
      body: { status: 503, message: 'The server cannot save right now: its disk is full. Try again later.' },
    });
    // Reads still work.
    expect((await fetch(`${server.url}/api/countries`)).status).toBe(200);

    rmSync(filler);
    expect((await readiness()).status).toBe(200);
    expect((await supportRequest(2)).status).toBe(200);
  }, 120_000);
});
