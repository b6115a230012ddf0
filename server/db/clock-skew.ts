import { sql } from 'kysely';
import type { Db } from './index.js';
import type { Logger } from '../logger.js';

/**
 * Session tokens, reset links and rate-limit windows are stamped with this
 * process's clock, and compared with times other instances wrote. A clock
 * that runs ahead signs tokens that live too long elsewhere, so the process
 * compares its clock with the database's (one clock for every instance) at
 * start and on readiness checks, and warns with the difference.
 */
export const CLOCK_SKEW_WARN_MS = 30_000;
/** Readiness probes come every few seconds; the clock is compared at most this often. */
export const CLOCK_SKEW_CHECK_EVERY_MS = 60_000;

export interface ClockSkewCheck {
  /** Compares the clocks now; returns how far this process is ahead of the database (negative: behind), in ms. */
  check(): Promise<number>;
  /** The same, unless the clocks were compared less than CLOCK_SKEW_CHECK_EVERY_MS ago. */
  checkOccasionally(): Promise<void>;
}

export function createClockSkewCheck(
  db: Db,
  logger: Logger,
  opts: { now?: () => number; warnAboveMs?: number; everyMs?: number } = {},
): ClockSkewCheck {
  const now = opts.now ?? Date.now;
  const warnAboveMs = opts.warnAboveMs ?? CLOCK_SKEW_WARN_MS;
  const everyMs = opts.everyMs ?? CLOCK_SKEW_CHECK_EVERY_MS;
  let lastCheckedAt = Number.NEGATIVE_INFINITY;

  async function check() {
    const sentAt = now();
    const { rows } = await sql<{ ms: number | string }>`select extract(epoch from clock_timestamp())::float8 * 1000 as ms`.execute(db);
    const receivedAt = now();
    lastCheckedAt = receivedAt;
    const databaseMs = Number(rows[0]?.ms);
    // The database read its clock somewhere within the round trip: compare with its middle.
    const skewMs = Math.round((sentAt + receivedAt) / 2 - databaseMs);
    if (Math.abs(skewMs) > warnAboveMs) {
      logger.warn(
        `this process's clock is ${Math.round(Math.abs(skewMs) / 1000)} s ${skewMs > 0 ? 'ahead of' : 'behind'} the database's clock: session lifetimes and recorded times are off by as much; fix the host's time sync (NTP)`,
        {
          skewMs,
          processTime: new Date(receivedAt).toISOString(),
          databaseTime: new Date(databaseMs).toISOString(),
          roundTripMs: receivedAt - sentAt,
        },
      );
    }
    return skewMs;
  }

  return {
    check,
    async checkOccasionally() {
      if (now() - lastCheckedAt < everyMs) return;
      lastCheckedAt = now();
      await check();
    },
  };
}
