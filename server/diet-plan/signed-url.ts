import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Diet plan PDFs open in a new browser tab, which sends no bearer header. The
 * list hands out links signed with the app secret instead: the signature
 * covers the plan id, its client and the expiry, so a link opens exactly one
 * plan, for a short while, and cannot be altered to reach another plan.
 */
export const PDF_LINK_TTL_SECONDS = 15 * 60;
/** Clock skew between instances we tolerate on the far side of the expiry. */
const MAX_FUTURE_SKEW_SECONDS = 60;

export const pdfPath = (planId: number) => `/api/diet-plan/pdf/${planId}`;

/** A key only for these links, so a signature can never be replayed elsewhere the secret is used. */
const linkKey = (secret: string) => createHmac('sha256', secret).update('poshan:diet-plan-pdf-link:v1').digest();

function signature(secret: string, planId: number, clientId: number, exp: number): string {
  return createHmac('sha256', linkKey(secret)).update(`${planId}.${clientId}.${exp}`).digest('base64url');
}

export function signPdfLink(
  secret: string,
  plan: { id: number; clientId: number },
  opts: { baseUrl?: string; now?: number; ttlSeconds?: number } = {},
): string {
  const nowSeconds = Math.floor((opts.now ?? Date.now()) / 1000);
  const exp = nowSeconds + (opts.ttlSeconds ?? PDF_LINK_TTL_SECONDS);
  const sig = signature(secret, plan.id, plan.clientId, exp);
  const base = (opts.baseUrl ?? '').replace(/\/+$/, '');
  return `${base}${pdfPath(plan.id)}?exp=${exp}&sig=${sig}`;
}

export type LinkCheck = { ok: true } | { ok: false; reason: 'malformed' | 'expired' | 'mismatch' };

/** Checks the query of a link against the plan it names (its id and owner come from the database). */
export function checkPdfLink(
  secret: string,
  plan: { id: number; clientId: number },
  query: { exp?: string; sig?: string },
  now = Date.now(),
): LinkCheck {
  const { exp: expText, sig } = query;
  if (!expText || !sig || !/^\d{1,12}$/.test(expText) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return { ok: false, reason: 'malformed' };
  const exp = Number(expText);
  const nowSeconds = Math.floor(now / 1000);
  if (exp < nowSeconds) return { ok: false, reason: 'expired' };
  // Links are never issued further ahead than the TTL; one that claims to be is not ours.
  if (exp > nowSeconds + PDF_LINK_TTL_SECONDS + MAX_FUTURE_SKEW_SECONDS) return { ok: false, reason: 'mismatch' };
  const expected = Buffer.from(signature(secret, plan.id, plan.clientId, exp));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given) ? { ok: true } : { ok: false, reason: 'mismatch' };
}
