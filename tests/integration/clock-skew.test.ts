import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_SKEW_CHECK_EVERY_MS, createClockSkewCheck } from '../../server/db/clock-skew.js';
import type { DbHandle } from '../../server/db/index.js';
import { loadConfig } from '../../server/env.js';
import { createLogger } from '../../server/logger.js';
import { createDeps, listen, type RunningServer } from '../../server/server.js';
import { createTestDatabase } from '../helpers/db.js';
import { captureLogs } from '../helpers/log-capture.js';

/**
 * An instance whose clock runs ahead signs tokens that live too long on the
 * others: it says so in its log, at start and on readiness checks, with the
 * difference. The clock is faked; the system clock is left alone.
 */
const AHEAD_MS = 65 * 60_000;
let handle: DbHandle;
let running: RunningServer;
const logs = captureLogs();
let offsetMs = AHEAD_MS;

const skewWarnings = () => logs.lines().filter((l) => l.level === 'warn' && /clock/.test(l.msg));

beforeAll(async () => {
  handle = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', SEED_DEMO: '0' });
  const deps = await createDeps(config, handle, 'x'.repeat(64), {
    logDestination: logs.destination,
    processNow: () => Date.now() + offsetMs,
  });
  running = await listen(deps, { port: 0, host: '127.0.0.1', serveClient: false });
}, 60_000);
afterAll(async () => {
  await running?.close();
  await handle?.close();
});

describe('clock skew against the database', () => {
  it('is logged as a warning at start, with the difference', () => {
    const [warning] = skewWarnings();
    expect(warning?.msg).toMatch(/this process's clock is 39\d\d s ahead of the database's clock/);
    expect(Math.abs(Number(warning?.skewMs) - AHEAD_MS)).toBeLessThan(5_000);
    expect(warning).toHaveProperty('databaseTime');
  });

  it('is checked again on a readiness check once a minute has passed, not on every probe; readiness stays 200', async () => {
    const before = skewWarnings().length;
    expect((await fetch(`${running.url}/readyz`)).status).toBe(200);
    expect(skewWarnings()).toHaveLength(before);
    // A minute later (by this process's clock, which has also drifted further ahead):
    offsetMs = AHEAD_MS + CLOCK_SKEW_CHECK_EVERY_MS + 1_000;
    expect((await fetch(`${running.url}/readyz`)).status).toBe(200);
    const latest = skewWarnings().at(-1);
    expect(skewWarnings().length).toBeGreaterThan(before);
    expect(Number(latest?.skewMs)).toBeGreaterThan(AHEAD_MS);
  });

  it('says nothing when the clocks agree within 30 s, and says "behind" when the process is behind', async () => {
    const own = captureLogs();
    const logger = createLogger({ level: 'warn', format: 'json', destination: own.destination });
    const inSync = createClockSkewCheck(handle.db, logger, { now: () => Date.now() + 20_000 });
    expect(Math.abs((await inSync.check()) - 20_000)).toBeLessThan(5_000);
    expect(own.raw).toEqual([]);
    const behind = createClockSkewCheck(handle.db, logger, { now: () => Date.now() - 90_000 });
    await behind.check();
    expect(own.lines()[0]?.msg).toMatch(/9\d s behind the database's clock/);
  });
});
