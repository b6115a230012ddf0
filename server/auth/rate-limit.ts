import type { Db } from '../db/index.js';
import { AppError } from '../errors.js';

/**
 * Sliding-window limits kept in the login_attempts table, so every instance
 * counts the same attempts. A bucket names what is counted, e.g.
 * `signin-fail:acct:asha@example.com` or `signin:ip:203.0.113.7`.
 *
 * Check and record are separate statements: a burst of requests that arrive
 * together can pass the check before any of them is recorded, so a limit can
 * be overshot by the number of requests in flight at once (small, as
 * password hashing is capped per instance). That trade keeps the hot path to
 * two indexed queries and no locks.
 */
export type Limit = { bucket: string; max: number; windowMs: number };

export const SIGN_IN_ACCOUNT_FAILURES = { max: 10, windowMs: 15 * 60_000 };
export const SIGN_IN_IP_ATTEMPTS = { max: 30, windowMs: 5 * 60_000 };
export const FORGOT_PASSWORD_IP = { max: 5, windowMs: 15 * 60_000 };
export const FORGOT_PASSWORD_EMAIL = { max: 5, windowMs: 15 * 60_000 };
const LONGEST_WINDOW_MS = 15 * 60_000;
const PRUNE_EVERY_MS = 60_000;

export const bucket = {
  signInFailures: (email: string) => `signin-fail:acct:${email.toLowerCase()}`,
  signInIp: (ip: string) => `signin:ip:${ip}`,
  forgotIp: (ip: string) => `forgot:ip:${ip}`,
  forgotEmail: (email: string) => `forgot:email:${email.toLowerCase()}`,
};

/** Seconds until the bucket is below its limit again, or 0 when it is below now. */
export async function secondsUntilAllowed(db: Db, limit: Limit, now = new Date()): Promise<number> {
  // The max-th newest attempt in the window: once it leaves the window, the count drops below max.
  const row = await db
    .selectFrom('login_attempts')
    .select('at')
    .where('bucket', '=', limit.bucket)
    .where('at', '>', new Date(now.getTime() - limit.windowMs))
    .orderBy('at', 'desc')
    .offset(limit.max - 1)
    .limit(1)
    .executeTakeFirst();
  if (!row) return 0;
  return Math.max(1, Math.ceil((row.at.getTime() + limit.windowMs - now.getTime()) / 1000));
}

export function tooManyRequests(what: string, seconds: number): AppError {
  const minutes = Math.ceil(seconds / 60);
  return new AppError('TOO_MANY_REQUESTS', `Too many ${what}. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`, {
    retryAfterSeconds: seconds,
  });
}

/** Throws 429 when any of the limits is reached (the longest wait wins). */
export async function enforceLimits(db: Db, what: string, limits: Limit[], now = new Date()): Promise<void> {
  const waits = await Promise.all(limits.map((limit) => secondsUntilAllowed(db, limit, now)));
  const wait = Math.max(0, ...waits);
  if (wait > 0) throw tooManyRequests(what, wait);
}

export async function recordAttempt(db: Db, buckets: string[], now = new Date()): Promise<void> {
  if (buckets.length === 0) return;
  await db
    .insertInto('login_attempts')
    .values(buckets.map((b) => ({ bucket: b, at: now })))
    .execute();
  await pruneOccasionally(db, now);
}

export async function clearAttempts(db: Db, bucketName: string): Promise<void> {
  await db.deleteFrom('login_attempts').where('bucket', '=', bucketName).execute();
}

/** Rows older than the longest window count for nothing; drop them at most once a minute per process and database. */
const lastPruned = new WeakMap<object, number>();
async function pruneOccasionally(db: Db, now: Date) {
  const last = lastPruned.get(db) ?? 0;
  if (now.getTime() - last < PRUNE_EVERY_MS) return;
  lastPruned.set(db, now.getTime());
  await db
    .deleteFrom('login_attempts')
    .where('at', '<', new Date(now.getTime() - LONGEST_WINDOW_MS))
    .execute();
}
