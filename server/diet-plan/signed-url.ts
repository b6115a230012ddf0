import { createLinkSigner, type LinkCheck } from '../http/signed-link.js';

export type { LinkCheck };

/**
 * Diet plan PDFs open in a new browser tab, which sends no bearer header. The
 * list hands out links signed with the app secret instead: the signature
 * covers the plan id, its client and the expiry, so a link opens exactly one
 * plan, for a short while, and cannot be altered to reach another plan.
 */
export const PDF_LINK_TTL_SECONDS = 15 * 60;
const links = createLinkSigner('poshan:diet-plan-pdf-link:v1', PDF_LINK_TTL_SECONDS);
const subjectOf = (plan: { id: number; clientId: number }) => `${plan.id}.${plan.clientId}`;

export const pdfPath = (planId: number) => `/api/diet-plan/pdf/${planId}`;

export function signPdfLink(
  secret: string,
  plan: { id: number; clientId: number },
  opts: { baseUrl?: string; now?: number; ttlSeconds?: number } = {},
): string {
  const { query } = links.sign(secret, subjectOf(plan), opts);
  const base = (opts.baseUrl ?? '').replace(/\/+$/, '');
  return `${base}${pdfPath(plan.id)}?${query}`;
}

/** Checks the query of a link against the plan it names (its id and owner come from the database). */
export function checkPdfLink(
  secret: string,
  plan: { id: number; clientId: number },
  query: { exp?: string; sig?: string },
  now = Date.now(),
): LinkCheck {
  return links.check(secret, subjectOf(plan), query, now);
}
