import { ROLE } from '../auth/roles.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { mapPage } from '../db/paging.js';
import { conflict, forbidden, notFound } from '../errors.js';
import { notifyPaymentEvent, type PaymentEvent } from './notify.js';
import * as repo from './repo.js';
import { type BillingSettings, type Invoice, type ListInvoicesInput, listInvoicesInput, upiPaymentLink } from './schema.js';
import { INVOICE_MISSING, PAID_CANNOT_CHANGE, type PaymentDeps, parse } from './shared.js';

/** An invoice as its readers see it, who may read it, and the one way any invoice's state changes (changeInvoice). */

/* ------------------------------- invoices ------------------------------- */

type ClaimRow = Awaited<ReturnType<typeof repo.latestClaims>>[number];
type Seller = Omit<BillingSettings, 'invoicePrefix'>;

export function toInvoice(r: repo.InvoiceRow, claim: ClaimRow | undefined, today: string): Invoice {
  const seller = r.seller as Seller;
  const open = r.status === 'issued' || r.status === 'claimed';
  return {
    id: r.id,
    number: r.number,
    status: r.status,
    overdue: open && r.due_on < today,
    issuedOn: r.issued_on,
    dueOn: r.due_on,
    client: { id: r.client_id, name: r.client_name, stateCode: r.client_state_code },
    seller,
    plan: r.plan_type && r.plan_id ? { planType: r.plan_type, planId: r.plan_id } : null,
    lines: r.lines as Invoice['lines'],
    subtotalPaise: r.subtotal_paise,
    discountPaise: r.discount_paise,
    taxablePaise: r.taxable_paise,
    taxRateBp: r.tax_rate_bp,
    cgstPaise: r.cgst_paise,
    sgstPaise: r.sgst_paise,
    igstPaise: r.igst_paise,
    roundOffPaise: r.round_off_paise,
    totalPaise: r.total_paise,
    notes: r.notes,
    upiLink: open
      ? upiPaymentLink({ vpa: seller.upiVpa, payeeName: seller.payeeName, totalPaise: r.total_paise, invoiceNumber: r.number })
      : null,
    payOnlineUrl: open ? r.razorpay_link_url : null,
    claim: claim ? { utr: claim.utr, state: claim.state, reason: claim.reason, claimedAt: claim.created_at } : null,
    paidAt: r.paid_at,
    paidVia: r.paid_via,
    paymentReference: r.payment_reference,
    subscriptionId: r.subscription_id,
    voidReason: r.void_reason,
    createdAt: r.created_at,
  };
}

export async function loadInvoice(db: Db, id: number, today: string): Promise<Invoice> {
  const row = await repo.findInvoice(db, id);
  if (!row) throw notFound(INVOICE_MISSING);
  const [claim] = await repo.latestClaims(db, [id]);
  return toInvoice(row, claim, today);
}

/** A client sees only their own invoices (403 for anyone else's); a dietitian sees every one. */
export function mayRead(actor: SessionUser, row: { client_id: number }) {
  if (actor.role !== ROLE.admin && row.client_id !== actor.id) throw forbidden('You can only see your own invoices.');
}

export const formatRupees = (paise: number) =>
  `₹${(paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export async function listInvoices(db: Db, actor: SessionUser, input: ListInvoicesInput, today: string) {
  const v = parse(listInvoicesInput, input);
  let clientId = v.clientId;
  if (actor.role !== ROLE.admin) {
    if (clientId !== undefined && clientId !== actor.id) throw forbidden('You can only see your own invoices.');
    clientId = actor.id;
  }
  const page = await repo.pageInvoices(db, { clientId, status: v.status, page: v.page, pageSize: v.pageSize }, today);
  const claims = new Map(
    (
      await repo.latestClaims(
        db,
        page.items.map((r) => r.id),
      )
    ).map((c) => [c.invoice_id, c]),
  );
  return mapPage(page, (r) => toInvoice(r, claims.get(r.id), today));
}

export async function getInvoice(db: Db, actor: SessionUser, id: number, today: string) {
  const row = await repo.findInvoice(db, id);
  if (!row) throw notFound(INVOICE_MISSING);
  mayRead(actor, row);
  const [claim] = await repo.latestClaims(db, [id]);
  return toInvoice(row, claim, today);
}

/**
 * Runs a change to one invoice, locked, with its NOTIFY; then tells people.
 * Every change of an invoice's state (claim, confirm, reject, void, a payment
 * recorded by hand) goes through here.
 */
export async function changeInvoice<T>(
  deps: PaymentDeps,
  id: number,
  change: (trx: Db, row: repo.InvoiceRow, now: Date) => Promise<{ result: T; event?: PaymentEvent }>,
): Promise<T> {
  const now = deps.clock();
  const { result, event } = await deps.db.transaction().execute(async (trx) => {
    const row = await repo.findInvoice(trx, id, { lock: true });
    if (!row) throw notFound(INVOICE_MISSING);
    const out = await change(trx, row, now);
    if (out.event) await repo.notifyInvoiceChanged(trx, row.id, row.client_id);
    return out;
  });
  if (event) await notifyPaymentEvent(deps, event);
  return result;
}

export const refuseUnpayable = (row: repo.InvoiceRow) => {
  if (row.status === 'paid') throw conflict(PAID_CANNOT_CHANGE);
  if (row.status === 'void') throw conflict('This invoice was cancelled: there is nothing to pay.');
};
