import type { SessionUser } from '../auth/session.js';
import type { AppDeps } from '../deps.js';
import { forbidden } from '../errors.js';
import { renderInvoicePdf } from '../pdf/invoice.js';
import * as repo from './repo.js';
import { serviceDay } from '../time.js';
import { getInvoice, toInvoice } from './invoices.js';
import { checkInvoiceLink, type DocumentKind, signInvoiceLink } from './signed-link.js';

/** Invoice and receipt PDFs: signed links for those who may read the invoice, and the bytes behind a valid link. */

export const INVALID_LINK = 'This download link is not valid. Open the invoice again from Payments to get a new one.';
export const EXPIRED_LINK = 'This download link has expired. Open the invoice again from Payments to get a new one.';

export async function invoicePdfLinks(deps: Pick<AppDeps, 'db' | 'secret' | 'config' | 'clock'>, actor: SessionUser, id: number) {
  const now = deps.clock();
  const inv = await getInvoice(deps.db, actor, id, serviceDay(now));
  const opts = { baseUrl: deps.config.publicUrl, now: now.getTime() };
  const invoice = signInvoiceLink(deps.secret, { kind: 'invoice', id, clientId: inv.client.id }, opts);
  const receipt = inv.status === 'paid' ? signInvoiceLink(deps.secret, { kind: 'receipt', id, clientId: inv.client.id }, opts) : null;
  return { invoiceUrl: invoice.url, receiptUrl: receipt?.url ?? null, expiresAt: invoice.expiresAt };
}

/** Renders the PDF a signed link names (the invoice as it stands now: a voided one carries its VOID mark). */
export async function openSignedInvoicePdf(
  deps: Pick<AppDeps, 'db' | 'secret' | 'clock'>,
  input: { kind: DocumentKind; id: number; exp?: string; sig?: string },
) {
  const now = deps.clock();
  const row = await repo.findInvoice(deps.db, input.id);
  const check = checkInvoiceLink(deps.secret, { kind: input.kind, id: input.id, clientId: row?.client_id ?? 0 }, input, now.getTime());
  if (!check.ok && check.reason === 'expired') throw forbidden(EXPIRED_LINK);
  if (!row || !check.ok) throw forbidden(INVALID_LINK);
  if (input.kind === 'receipt' && row.status !== 'paid') throw forbidden(INVALID_LINK);
  const [claim] = await repo.latestClaims(deps.db, [row.id]);
  const invoice = toInvoice(row, claim, serviceDay(now));
  const pdf = await renderInvoicePdf({ kind: input.kind, invoice });
  return { number: row.number, pdf };
}
