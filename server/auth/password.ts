import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { RateLimitError } from '../errors.js';
import { FairQueue, QueueFullError } from './hash-queue.js';

/**
 * scrypt (memory-hard) with a per-user salt. Node runs scrypt on the libuv
 * thread pool, off the event loop; the fair queue below caps how many run at
 * once so a login flood queues instead of starving every other request, and
 * serves callers round-robin by IP so the flood waits behind itself.
 */
const PARAMS = { N: 2 ** 15, r: 8, p: 1, keyLen: 32, maxmem: 64 * 1024 * 1024 };
export const HASH_CONCURRENCY = 2;
/** Password checks one IP, or one account, may have queued or running at once. */
export const HASH_QUEUE_PER_KEY = 6;
const queue = new FairQueue(HASH_CONCURRENCY, HASH_QUEUE_PER_KEY);
/**
 * This many password checks waiting means every sign-in waits several rounds
 * of scrypt: readiness reports the instance as full, so a proxy sends new
 * requests elsewhere while it catches up.
 */
export const HASH_QUEUE_SATURATED = 16;
export const hashQueueSaturated = () => queue.load().waiting >= HASH_QUEUE_SATURATED;

/** Who is asking: the queue is fair per IP, and capped per IP and per account. */
export type HashRequester = { ip: string; account?: string };
/** Work the server does for itself (seed, CLI) queues under its own key. */
const SERVER: HashRequester = { ip: 'server' };

export const HASH_BUSY_MESSAGE = 'Too many sign-in attempts are being checked for you right now. Try again in a few seconds.';

function queueKeys(who: HashRequester): string[] {
  return who.account ? [`ip:${who.ip}`, `acct:${who.account.toLowerCase()}`] : [`ip:${who.ip}`];
}

async function inFairTurn<T>(who: HashRequester, fn: () => Promise<T>): Promise<T> {
  try {
    return await queue.run(queueKeys(who), fn);
  } catch (err) {
    if (!(err instanceof QueueFullError)) throw err;
    throw new RateLimitError(HASH_BUSY_MESSAGE, 2, ['hash-queue']);
  }
}

function derive(who: HashRequester, password: string, salt: Buffer, N: number, r: number, p: number, keyLen: number): Promise<Buffer> {
  return inFairTurn(
    who,
    () =>
      new Promise((resolve, reject) =>
        scryptCb(password.normalize('NFKC'), salt, keyLen, { N, r, p, maxmem: PARAMS.maxmem }, (err, key) =>
          err ? reject(err) : resolve(key),
        ),
      ),
  );
}

/** Format: scrypt$N$r$p$salt$hash (base64url), so parameters can be raised later. */
export async function hashPassword(password: string, who: HashRequester = SERVER): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(who, password, salt, PARAMS.N, PARAMS.r, PARAMS.p, PARAMS.keyLen);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string, who: HashRequester = SERVER): Promise<boolean> {
  const [scheme, n, r, p, saltText, hashText] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, 'base64url');
  const key = await derive(who, password, Buffer.from(saltText, 'base64url'), Number(n), Number(r), Number(p), expected.length);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash to compare against when the account does not exist, so timing does not reveal which emails are registered. */
let dummyHash: Promise<string> | null = null;
export const dummyPasswordHash = () => (dummyHash ??= hashPassword(randomBytes(12).toString('hex')));
