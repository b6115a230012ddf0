import { describe, expect, it } from 'vitest';
import { asOutage, describeError } from '../errors.js';
import { createWriteHealth, DISK_FULL_MESSAGE, isDiskFull } from './disk-full.js';

/** What pg hands over when the Postgres server's disk is full (a DatabaseError with the SQLSTATE). */
const postgresDiskFull = Object.assign(new Error('could not extend file "base/16384/16385": No space left on device'), {
  code: '53100',
  severity: 'ERROR',
});

describe('a full disk under the database', () => {
  it('is recognised from the SQLSTATE, from ENOSPC, and through causes; other failures are not', () => {
    expect(isDiskFull(postgresDiskFull)).toBe(true);
    expect(isDiskFull({ code: '53100', message: 'disk full' })).toBe(true);
    expect(isDiskFull(Object.assign(new Error('write failed'), { code: 'ENOSPC' }))).toBe(true);
    expect(isDiskFull(new Error('query failed', { cause: postgresDiskFull }))).toBe(true);
    expect(isDiskFull(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDiskFull(null)).toBe(false);
  });

  it('is answered 503 with a message a person can act on (tRPC and REST alike)', () => {
    const answer = asOutage(postgresDiskFull);
    expect(describeError(answer)).toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: DISK_FULL_MESSAGE,
      retryAfterSeconds: 60,
    });
    expect(describeError(postgresDiskFull)).toMatchObject({ status: 503, message: DISK_FULL_MESSAGE });
  });

  it('on Postgres (a disk this process cannot see) keeps readiness down until a write succeeds or 30 s pass without another failure', async () => {
    let now = 0;
    const health = createWriteHealth({ now: () => now });
    expect(await health.problem()).toBeNull();
    health.failedForDiskFull();
    expect(await health.problem()).toBe(DISK_FULL_MESSAGE);
    health.succeeded();
    expect(await health.problem()).toBeNull();
    health.failedForDiskFull();
    now = 29_999;
    expect(await health.problem()).toBe(DISK_FULL_MESSAGE);
    now = 30_000;
    expect(await health.problem()).toBeNull();
  });
});
