import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived links a browser opens without a bearer header (a PDF in a new
 * tab): `?exp=<unix seconds>&sig=<HMAC>`, the HMAC over `<subject>.<exp>`
 * under a key derived from the app secret for one purpose only, so a
 * signature made for one kind of link can never open another. The subject
 * names what the link opens and whose it is (e.g. `12.34`: plan 12 of
 * client 34), read again from the database when the link is checked.
 */
export type LinkCheck = { ok: true } | { ok: false; reason: 'malformed' | 'expired' | 'mismatch' };

/** Clock skew between instances tolerated on the far side of the expiry. */
const MAX_FUTURE_SKEW_SECONDS = 60;

export function createLinkSigner(purpose: string, ttlSeconds: number) {
  const keyOf = (secret: string) => createHmac('sha256', secret).update(purpose).digest();
  const signature = (secret: string, subject: string, exp: number) =>
    createHmac('sha256', keyOf(secret)).update(`${subject}.${exp}`).digest('base64url');

  return {
    ttlSeconds,
    /** The query that opens `subject` until now + the TTL (or `ttlSeconds`). */
    sign(secret: string, subject: string, opts: { now?: number; ttlSeconds?: number } = {}) {
      const exp = Math.floor((opts.now ?? Date.now()) / 1000) + (opts.ttlSeconds ?? ttlSeconds);
      return { query: `exp=${exp}&sig=${signature(secret, subject, exp)}`, exp };
    },
    check(secret: string, subject: string, query: { exp?: string; sig?: string }, now = Date.now()): LinkCheck {
      const { exp: expText, sig } = query;
      if (!expText || !sig || !/^\d{1,12}$/.test(expText) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return { ok: false, reason: 'malformed' };
      const exp = Number(expText);
      const nowSeconds = Math.floor(now / 1000);
      if (exp < nowSeconds) return { ok: false, reason: 'expired' };
      // Links are never issued further ahead than the TTL; one that claims to be is not ours.
      if (exp > nowSeconds + ttlSeconds + MAX_FUTURE_SKEW_SECONDS) return { ok: false, reason: 'mismatch' };
      const expected = Buffer.from(signature(secret, subject, exp));
      const given = Buffer.from(sig);
      return expected.length === given.length && timingSafeEqual(expected, given) ? { ok: true } : { ok: false, reason: 'mismatch' };
    },
  };
}
