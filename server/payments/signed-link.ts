import { createLinkSigner, type LinkCheck } from '../http/signed-link.js';

/**
 * Invoice and receipt PDFs open in a new tab, which sends no bearer header:
 * GET /api/invoices/{id}/pdf (signed in) hands out short-lived links signed
 * with the app secret, as diet-plan PDFs do. The signature covers the kind,
 * the invoice, its client and the expiry, under a key used for nothing else.
 */
export const INVOICE_LINK_TTL_SECONDS = 15 * 60;
export type DocumentKind = 'invoice' | 'receipt';
export type { LinkCheck };

export const invoiceFilePath = (kind: DocumentKind, id: number) => `/api/invoice-files/${kind}/${id}`;

const links = createLinkSigner('poshan:invoice-pdf-link:v1', INVOICE_LINK_TTL_SECONDS);
const subjectOf = (doc: { kind: DocumentKind; id: number; clientId: number }) => `${doc.kind}.${doc.id}.${doc.clientId}`;

export function signInvoiceLink(
  secret: string,
  doc: { kind: DocumentKind; id: number; clientId: number },
  opts: { baseUrl?: string; now?: number } = {},
): { url: string; expiresAt: Date } {
  const { query, exp } = links.sign(secret, subjectOf(doc), { now: opts.now });
  const base = (opts.baseUrl ?? '').replace(/\/+$/, '');
  return { url: `${base}${invoiceFilePath(doc.kind, doc.id)}?${query}`, expiresAt: new Date(exp * 1000) };
}

export function checkInvoiceLink(
  secret: string,
  doc: { kind: DocumentKind; id: number; clientId: number },
  query: { exp?: string; sig?: string },
  now = Date.now(),
): LinkCheck {
  return links.check(secret, subjectOf(doc), query, now);
}
