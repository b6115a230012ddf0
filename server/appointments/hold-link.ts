import { HOLD_MINUTES } from '../consultation/schema.js';
import { createLinkSigner, type LinkCheck } from '../http/signed-link.js';

/**
 * The link in a visitor's booking mail that confirms their held consultation time. It opens a page whose
 * button confirms (a POST): a mail scanner that follows links changes nothing. The signature covers the
 * hold and its request, and lasts as long as the hold.
 */
const links = createLinkSigner('poshan:consultation-hold-confirm:v1', HOLD_MINUTES * 60);
const subjectOf = (hold: { id: number; consultationId: number }) => `${hold.id}.${hold.consultationId}`;

export const CONFIRM_HOLD_PATH = '/confirm-consultation';

export function signHoldLink(secret: string, hold: { id: number; consultationId: number }, opts: { baseUrl: string; now: number }): string {
  const { query } = links.sign(secret, subjectOf(hold), { now: opts.now });
  return `${opts.baseUrl.replace(/\/+$/, '')}${CONFIRM_HOLD_PATH}?hold=${hold.id}&${query}`;
}

export function checkHoldLink(
  secret: string,
  hold: { id: number; consultationId: number },
  query: { exp?: string; sig?: string },
  now: number,
): LinkCheck {
  return links.check(secret, subjectOf(hold), query, now);
}
