import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Invoice and receipt PDFs open in a new tab, which sends no bearer header:
 * GET /api/invoices/{id}/pdf (signed in) hands out short-lived links signed
 * with the app secret, as diet-plan PDFs do. The signature covers the kind,
 * the invoice, its client and the expiry, under a key used for nothing else.
 */
export const INVOICE_LINK_TTL_SECONDS = 15 * 60;
const MAX_FUTURE_SKEW_SECONDS = 60;
export type DocumentKind = 'invoice' | 'receipt';

export const invoiceFilePath = (kind: DocumentKind, id: number) => `/api/invoice-files/${kind}/${id}`;

const linkKey = (secret: string) => createHmac('sha256', secret).update('poshan:invoice-pdf-link:v1').digest();
const signature = (secret: string, kind: DocumentKind, id: number, clientId: number, exp: number) =>
  createHmac('sha256', linkKey(secret)).update(`${kind}.${id}.${clientId}.${exp}`).digest('base64url');

export function signInvoiceLink(
  secret: string,
  doc: { kind: DocumentKind; id: number; clientId: number },
  opts: { baseUrl?: string; now?: number } = {},
): { url: string; expiresAt: Date } {
  const exp = Math.floor((opts.now ?? Date.now()) / 1000) + INVOICE_LINK_TTL_SECONDS;
  const base = (opts.baseUrl ?? '').replace(/\/+$/, '');
  const sig = signature(secret, doc.kind, doc.id, doc.clientId, exp);
  return { url: `${base}${invoiceFilePath(doc.kind, doc.id)}?exp=${exp}&sig=${sig}`, expiresAt: new Date(exp * 1000) };
}

export type LinkCheck = { ok: true } | { ok: false; reason: 'malformed' | 'expired' | 'mismatch' };

export function checkInvoiceLink(
  secret: string,
  doc: { kind: DocumentKind; id: number; clientId: number },
  query: { exp?: string; sig?: string },
  now = Date.now(),
): LinkCheck {
  const { exp: expText, sig } = query;
  if (!expText || !sig || !/^\d{1,12}$/.test(expText) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return { ok: false, reason: 'malformed' };
  const exp = Number(expText);
  const nowSeconds = Math.floor(now / 1000);
  if (exp < nowSeconds) return { ok: false, reason: 'expired' };
  if (exp > nowSeconds + INVOICE_LINK_TTL_SECONDS + MAX_FUTURE_SKEW_SECONDS) return { ok: false, reason: 'mismatch' };
  const expected = Buffer.from(signature(secret, doc.kind, doc.id, doc.clientId, exp));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given) ? { ok: true } : { ok: false, reason: 'mismatch' };
}
