import type { Db } from '../db/index.js';
import type { RateLimits } from '../env.js';
import { RateLimitError } from '../errors.js';
import { deleteSlotsBefore, deleteSlotsOfBucket, insertSlots, lockBucketNames, nthNewestSlotSince } from './limits-repo.js';

/**
 * Sliding-window limits kept in the login_attempts table, so every instance
 * counts the same attempts. A bucket names what is counted, e.g.
 * `signin:acct:asha@example.com` or `signin:ip:203.0.113.7`.
 *
 * Check and record are one step: inside a transaction, each bucket's
 * transaction-scoped advisory lock is taken (in a fixed order, so two
 * requests never wait on each other in a cycle), then every bucket is
 * counted, and the attempt is recorded in all of them only if all are below
 * their limit. A second request for the same bucket, on this instance or
 * another one, waits for the first to commit and then counts its row, so N
 * concurrent or batched attempts get at most `max` through. PGlite runs one
 * transaction at a time, which gives the same guarantee there.
 */
export type Window = { max: number; windowMs: number };
export type Limit = Window & { bucket: string };

/** Windows longer than this are refused by the configuration; older rows count for nothing. */
export const LONGEST_WINDOW_MS = 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 60_000;

/** What a limit counts; also the `kind` label of poshan_rate_limit_refusals_total. */
export type LimitKind =
  | 'signin-ip'
  | 'signin-account'
  | 'signin-device'
  | 'forgot-ip'
  | 'forgot-email'
  | 'support-ip'
  | 'support-email'
  | 'consultation-ip'
  | 'consultation-email'
  | 'visit-ip'
  | 'refresh-sign-in'
  | 'refresh-ip'
  | 'check-in-client'
  | 'message-sender'
  | 'journal-client'
  | 'care-record-client'
  | 'intake-client'
  | 'upload-count'
  | 'upload-bytes';

export const bucket = {
  signInAccount: (email: string) => `signin:acct:${email.toLowerCase()}`,
  signInDevice: (deviceId: string) => `signin:device:${deviceId}`,
  signInIp: (ip: string) => `signin:ip:${ip}`,
  forgotIp: (ip: string) => `forgot:ip:${ip}`,
  forgotEmail: (email: string) => `forgot:email:${email.toLowerCase()}`,
  formIp: (form: 'support' | 'consultation', ip: string) => `${form}:ip:${ip}`,
  formEmail: (form: 'support' | 'consultation', email: string) => `${form}:email:${email.trim().toLowerCase()}`,
  visitIp: (ip: string) => `visit:ip:${ip}`,
  refreshSignIn: (familyId: string) => `refresh:family:${familyId}`,
  refreshIp: (ip: string) => `refresh:ip:${ip}`,
  checkInClient: (clientId: number) => `check-in:client:${clientId}`,
  messageSender: (userId: number) => `message:sender:${userId}`,
  journalWriter: (userId: number) => `journal:writer:${userId}`,
  careRecordClient: (clientId: number) => `care-record:client:${clientId}`,
  intakeClient: (clientId: number) => `intake:client:${clientId}`,
  uploadCount: (userId: number) => `upload:count:${userId}`,
  /** Locked only (its count is the bytes in the attachments table, not rows here). */
  uploadBytes: (userId: number) => `upload:bytes:${userId}`,
};

export type KindedLimit = Limit & { kind: LimitKind };

/**
 * The public forms (Contact Us, consultation booking) are limited per IP,
 * generously for a clinic's visitors behind one address, and per e-mail
 * address, so one sender cannot flood the team's mailbox from many.
 */
export function publicFormLimits(limits: RateLimits, form: 'support' | 'consultation', ip: string, email: string): KindedLimit[] {
  return [
    { kind: `${form}-ip`, bucket: bucket.formIp(form, ip), ...limits.formsIp },
    { kind: `${form}-email`, bucket: bucket.formEmail(form, email), ...limits.formsEmail },
  ];
}

/** Seconds until the bucket is below its limit again, or 0 when it is below now. */
export async function secondsUntilAllowed(db: Db, limit: Limit, now = new Date()): Promise<number> {
  // The max-th newest attempt in the window: once it leaves the window, the count drops below max.
  return secondsUntilFree(await nthNewestSlotSince(db, limit.bucket, new Date(now.getTime() - limit.windowMs), limit.max), limit, now);
}

/** 0 when the bucket had room; else the whole seconds until its max-th newest slot (taken `at`) leaves the window. */
export function secondsUntilFree(at: Date | undefined, limit: Limit, now: Date): number {
  if (!at) return 0;
  return Math.max(1, Math.ceil((at.getTime() + limit.windowMs - now.getTime()) / 1000));
}

export function tooManyRequests(what: string, seconds: number, limits: LimitKind[] = []): RateLimitError {
  const minutes = Math.ceil(seconds / 60);
  return new RateLimitError(`Too many ${what}. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`, seconds, limits);
}

/**
 * Takes one slot in every bucket, or none: throws 429 (the longest wait
 * wins, nothing recorded) when any bucket is full. `db` must be the root
 * database, not a transaction the caller keeps open: the slot must be visible
 * to other requests as soon as this returns.
 */
export async function takeSlot(db: Db, what: string, limits: KindedLimit[], now = new Date()): Promise<void> {
  if (limits.length === 0) return;
  const ordered = [...limits].sort((a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0));
  const refused = await db.transaction().execute(async (trx) => {
    await lockBuckets(trx, ordered);
    const waits = [];
    for (const limit of ordered) waits.push({ limit, wait: await secondsUntilAllowed(trx, limit, now) });
    const full = waits.filter((w) => w.wait > 0);
    if (full.length > 0) return full;
    await recordSlots(trx, ordered, now);
    return null;
  });
  if (refused) {
    throw tooManyRequests(
      what,
      Math.max(...refused.map((r) => r.wait)),
      refused.map((r) => r.limit.kind),
    );
  }
  await pruneOccasionally(db, now);
}

/**
 * Holds the buckets' locks until the caller's transaction ends (in bucket order, as takeSlot sorts them):
 * a write that counts itself against a limit inside its own transaction (a check-in) takes its slot with
 * lockBuckets, secondsUntilAllowed and recordSlots, so only what is stored is counted.
 */
export async function lockBuckets(trx: Db, limits: Limit[]): Promise<void> {
  await lockBucketNames(
    trx,
    limits.map((l) => l.bucket),
  );
}

/** One slot taken in each bucket, at `now`. */
export async function recordSlots(trx: Db, limits: Limit[], now: Date): Promise<void> {
  await insertSlots(
    trx,
    limits.map((l) => l.bucket),
    now,
  );
}

export async function clearAttempts(db: Db, bucketName: string): Promise<void> {
  await deleteSlotsOfBucket(db, bucketName);
}

/** Rows older than the longest window count for nothing; drop them at most once a minute per process and database. */
const lastPruned = new WeakMap<object, number>();
async function pruneOccasionally(db: Db, now: Date) {
  const last = lastPruned.get(db) ?? 0;
  if (now.getTime() - last < PRUNE_EVERY_MS) return;
  lastPruned.set(db, now.getTime());
  await deleteSlotsBefore(db, new Date(now.getTime() - LONGEST_WINDOW_MS));
}
