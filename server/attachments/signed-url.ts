import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The app's sessions travel as a bearer header, which an <img src> or a
 * download link never sends. So views hand out short-lived signed links
 * (as diet-plan PDFs do), and GET /api/attachments/{id} also takes a bearer
 * token. Each file has its own random key (attachments.link_key), so whoever
 * may read the row can sign its links without the app secret, and a
 * signature opens one variant of one file until it expires (decision 112).
 */
export const ATTACHMENT_LINK_TTL_SECONDS = 15 * 60;
const MAX_FUTURE_SKEW_SECONDS = 60;

export type Variant = 'file' | 'thumbnail';

export const newLinkKey = () => randomBytes(32).toString('base64url');

export const attachmentPath = (id: string, variant: Variant) =>
  variant === 'file' ? `/api/attachments/${id}` : `/api/attachments/${id}/thumbnail`;

function signature(linkKey: string, id: string, variant: Variant, exp: number): string {
  return createHmac('sha256', Buffer.from(linkKey, 'base64url')).update(`poshan:attachment:v1.${id}.${variant}.${exp}`).digest('base64url');
}

/** The link, relative to the app's origin (the page that shows it is served from the same one). */
export function signAttachmentLink(
  file: { id: string; linkKey: string },
  variant: Variant,
  now = Date.now(),
  ttlSeconds = ATTACHMENT_LINK_TTL_SECONDS,
): string {
  // Rounded to the minute: links made for the same file within a minute are the same, so a browser's cache keeps one copy.
  const exp = Math.ceil((Math.floor(now / 1000) + ttlSeconds) / 60) * 60;
  return `${attachmentPath(file.id, variant)}?exp=${exp}&sig=${signature(file.linkKey, file.id, variant, exp)}`;
}

export type LinkCheck = { ok: true } | { ok: false; reason: 'malformed' | 'expired' | 'mismatch' };

export function checkAttachmentLink(
  file: { id: string; linkKey: string },
  variant: Variant,
  query: { exp?: string; sig?: string },
  now = Date.now(),
): LinkCheck {
  const { exp: expText, sig } = query;
  if (!expText || !sig || !/^\d{1,12}$/.test(expText) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return { ok: false, reason: 'malformed' };
  const exp = Number(expText);
  const nowSeconds = Math.floor(now / 1000);
  if (exp < nowSeconds) return { ok: false, reason: 'expired' };
  if (exp > nowSeconds + ATTACHMENT_LINK_TTL_SECONDS + 60 + MAX_FUTURE_SKEW_SECONDS) return { ok: false, reason: 'mismatch' };
  const expected = Buffer.from(signature(file.linkKey, file.id, variant, exp));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given) ? { ok: true } : { ok: false, reason: 'mismatch' };
}
