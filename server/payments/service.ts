import { recordAudit } from '../audit/record.js';
import { clientNotFound } from '../auth/guards.js';
import { ROLE } from '../auth/roles.js';
import type { SessionUser } from '../auth/session.js';
import { findPlan } from '../catalogue/plans.js';
import type { Db } from '../db/index.js';
import { insertOnce, sameRequest } from '../db/idempotent.js';
import { mapPage } from '../db/paging.js';
import { badRequest, conflict, forbidden, issueMessage, notFound, zodFieldErrors } from '../errors.js';
import type { PaidVia } from '../db/schema.js';
import { formatDay } from '../format.js';
import { planEndDate } from '../subscription/period.js';
import { addDays, monthRange, serviceDay } from '../time.js';
import { assignSubscription } from '../subscription/service.js';
import { findClientAccount } from '../users/repo.js';
import { computeInvoice, invoiceLines, type LineInput, MAX_INVOICE_PAISE, taxModeFor } from './money.js';
import { type NotifyDeps, notifyPaymentEvent, type PaymentEvent } from './notify.js';
import { attachPaymentLink } from './payment-link.js';
import * as repo from './repo.js';
import {
  type BillingSettings,
  type BillingSettingsInput,
  billingSettingsInput,
  type CreateInvoiceInput,
  createInvoiceInput,
  financialYearOf,
  type Invoice,
  invoiceNumber,
  type ListInvoicesInput,
  listInvoicesInput,
  MAX_INVOICE_SEQ,
  upiPaymentLink,
} from './schema.js';

/**
 * Invoices and payments (issue 27). Every amount is computed here from the
 * catalogue, the lines a dietitian typed and the clinic's settings
 * (money.ts); every change runs in one transaction with its audit entry and
 * its NOTIFY; people hear of it through notify.ts once it has committed.
 */

export type PaymentDeps = NotifyDeps & { clock: () => Date };

export const INVOICE_MISSING = 'That invoice does not exist.';
export const SETTINGS_MISSING = 'Set the clinic’s billing details (Payments → Billing details) before issuing invoices.';
export const UTR_TAKEN = 'This UTR has already been used for another payment. Check the 12 digits in your UPI app.';
export const PAID_CANNOT_CHANGE = 'This invoice is paid: a paid invoice cannot change.';

/** Invoices are dated and numbered by the calendar day in India. */
export { serviceDay };

export const parse = <T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: import('zod').ZodError } },
  input: unknown,
): T => {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw badRequest(issueMessage(parsed.error.issues[0]!), zodFieldErrors(parsed.error));
  return parsed.data;
};

/* ---------------------------- billing details ---------------------------- */

type SettingsRow = NonNullable<Awaited<ReturnType<typeof repo.findBillingSettings>>>;

const toSettings = (r: SettingsRow): BillingSettings => ({
  legalName: r.legal_name,
  address: r.address,
  stateCode: r.state_code,
  gstin: r.gstin,
  sacCode: r.sac_code,
  taxRateBp: r.tax_rate_bp,
  upiVpa: r.upi_vpa,
  payeeName: r.payee_name,
  invoicePrefix: r.invoice_prefix,
});

export async function getBillingSettings(db: Db): Promise<BillingSettings | null> {
  const row = await repo.findBillingSettings(db);
  return row ? toSettings(row) : null;
}

export async function saveBillingSettings(deps: PaymentDeps, actor: SessionUser, input: BillingSettingsInput) {
  const s = parse(billingSettingsInput, input);
  await deps.db.transaction().execute(async (trx) => {
    const before = await repo.findBillingSettings(trx);
    await repo.saveBillingSettings(
      trx,
      {
        legal_name: s.legalName,
        address: s.address,
        state_code: s.stateCode,
        gstin: s.gstin,
        sac_code: s.sacCode,
        tax_rate_bp: s.taxRateBp,
        upi_vpa: s.upiVpa,
        payee_name: s.payeeName,
        invoice_prefix: s.invoicePrefix,
      },
      deps.clock(),
    );
    await recordAudit(trx, actor, {
      action: 'billing.settings_saved',
      entity: 'billing_settings',
      entityId: 1,
      summary: `Billing details saved: ${s.legalName}, ${s.gstin ? `GSTIN ${s.gstin}, ${s.taxRateBp / 100}%` : 'not registered for GST'}`,
      details: { before: before ? toSettings(before) : null, after: s },
    });
  });
  return { message: 'Billing details saved.' };
}

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

async function loadInvoice(db: Db, id: number, today: string): Promise<Invoice> {
  const row = await repo.findInvoice(db, id);
  if (!row) throw notFound(INVOICE_MISSING);
  const [claim] = await repo.latestClaims(db, [id]);
  return toInvoice(row, claim, today);
}

/** A client sees only their own invoices (403 for anyone else's); a dietitian sees every one. */
function mayRead(actor: SessionUser, row: { client_id: number }) {
  if (actor.role !== ROLE.admin && row.client_id !== actor.id) throw forbidden('You can only see your own invoices.');
}

export { taxModeFor };

/**
 * A dietitian issues an invoice. The plan's name and price come from the
 * catalogue, the tax from the clinic's settings and the client's state, the
 * number from the financial year's counter, all in one transaction. A repeat
 * of the same clientRequestId answers the first invoice (repeated: true).
 */
export async function issueInvoice(deps: PaymentDeps, actor: SessionUser, input: CreateInvoiceInput): Promise<Invoice> {
  const v = parse(createInvoiceInput, input);
  const now = deps.clock();
  const today = serviceDay(now);
  const client = await findClientAccount(deps.db, v.clientId);
  if (!client) throw clientNotFound('clientId');
  const settings = await getBillingSettings(deps.db);
  if (!settings) throw conflict(SETTINGS_MISSING);

  const plan = v.plan ? findPlan(v.plan.planType, v.plan.planId) : undefined;
  if (v.plan && !plan) {
    const message = `The ${v.plan.planType} catalogue has no plan ${v.plan.planId}.`;
    throw badRequest(message, { 'plan.planId': [message] });
  }
  const lines = invoiceLines(plan, v.lines).map((l) => ({ ...l, sac: settings.sacCode as string | null }));

  const clientStateCode = v.clientStateCode ?? null;
  if (settings.gstin && !clientStateCode) {
    const message = 'Choose the client’s state: it decides between CGST + SGST and IGST';
    throw badRequest(message, { clientStateCode: [message] });
  }
  const subtotal = lines.reduce((s, l) => s + l.quantity * l.unitPaise, 0);
  if (v.discountPaise > subtotal) {
    const message = 'The discount cannot be more than the lines add up to';
    throw badRequest(message, { discountPaise: [message] });
  }
  if (subtotal - v.discountPaise > MAX_INVOICE_PAISE) throw badRequest('An invoice can be at most ₹10,00,000.', { lines: ['Too large'] });
  const totals = computeInvoice({ lines, discountPaise: v.discountPaise, tax: taxModeFor(settings, clientStateCode) });
  if (totals.totalPaise <= 0) {
    const message = 'An invoice must be for more than ₹0';
    throw badRequest(message, { lines: [message] });
  }

  const fy = financialYearOf(today);
  const { invoiceId, created } = await deps.db.transaction().execute(async (trx) => {
    const once = await insertOnce({
      insert: async () => {
        // The counter's lock first: a repeat racing its first waits here, then finds it and takes no number.
        const seq = (await repo.lockInvoiceCounter(trx, fy)) + 1;
        if (await repo.findInvoiceIdByKey(trx, actor.id, v.clientRequestId)) return undefined;
        if (seq > MAX_INVOICE_SEQ) throw conflict(`This financial year has used all ${MAX_INVOICE_SEQ} invoice numbers.`);
        await repo.setInvoiceCounter(trx, fy, seq);
        return repo.insertInvoice(trx, {
          number: invoiceNumber(settings.invoicePrefix, fy, seq),
          financial_year: fy,
          seq,
          client_id: client.id,
          issued_by: actor.id,
          client_request_id: v.clientRequestId,
          status: 'issued',
          issued_on: today,
          due_on: addDays(today, v.dueInDays),
          seller: JSON.stringify({ ...settings, invoicePrefix: undefined }),
          client_name: `${client.first_name} ${client.last_name ?? ''}`.trim(),
          client_state_code: clientStateCode,
          plan_type: plan?.type ?? null,
          plan_id: plan?.id ?? null,
          lines: JSON.stringify(totals.lines.map((l, i) => ({ ...l, sac: lines[i]!.sac }))),
          subtotal_paise: totals.subtotalPaise,
          discount_paise: totals.discountPaise,
          taxable_paise: totals.taxablePaise,
          tax_rate_bp: totals.taxRateBp,
          cgst_paise: totals.cgstPaise,
          sgst_paise: totals.sgstPaise,
          igst_paise: totals.igstPaise,
          round_off_paise: totals.roundOffPaise,
          total_paise: totals.totalPaise,
          notes: v.notes,
          created_at: now,
          updated_at: now,
        });
      },
      existing: () => repo.findInvoiceIdByKey(trx, actor.id, v.clientRequestId),
      sameAs: (first) => {
        const customLines = (first.lines as LineInput[]).slice(first.plan_id ? 1 : 0);
        sameRequest('clientRequestId', {
          clientId: [first.client_id, client.id],
          plan: [
            first.plan_id ? { planType: first.plan_type, planId: first.plan_id } : null,
            plan ? { planType: plan.type, planId: plan.id } : null,
          ],
          lines: [customLines.map(({ description, quantity, unitPaise }) => ({ description, quantity, unitPaise })), v.lines],
          discountPaise: [Number(first.discount_paise), v.discountPaise],
          clientStateCode: [first.client_state_code, clientStateCode],
          dueInDays: [first.due_on, addDays(first.issued_on, v.dueInDays)],
          notes: [first.notes, v.notes],
        });
      },
    });
    if (once.created) {
      const row = (await repo.findInvoice(trx, once.row.id))!;
      await recordAudit(trx, actor, {
        action: 'invoice.issued',
        entity: 'invoice',
        entityId: row.id,
        summary: `Issued invoice ${row.number} to client #${row.client_id} for ${formatRupees(row.total_paise)}`,
        details: { clientId: row.client_id, number: row.number, totalPaise: row.total_paise, planId: row.plan_id },
      });
      await repo.notifyInvoiceChanged(trx, row.id, row.client_id);
    }
    return { invoiceId: once.row.id, created: once.created };
  });
  if (created) {
    await attachPaymentLink(deps, invoiceId);
    await notifyPaymentEvent(deps, { kind: 'issued', invoiceId });
  }
  return { ...(await loadInvoice(deps.db, invoiceId, today)), repeated: !created };
}

const formatRupees = (paise: number) => `₹${(paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

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

/**
 * The client says they paid by UPI, with the UTR their app shows. A UTR backs
 * one open or confirmed claim (409 on any other invoice; a rejected claim lets
 * its UTR go, so the payer whose transfer it is can still claim it, though not
 * for the invoice that refused it); sending
 * the same claim again answers the first (repeated: true), and the claimant's
 * own UTR sent for another invoice is refused as a repeat with other details.
 */
export async function claimPayment(deps: PaymentDeps, actor: SessionUser, input: { id: number; utr: string }) {
  const today = serviceDay(deps.clock());
  const { repeated } = await changeInvoice(deps, input.id, async (trx, row, now) => {
    mayRead(actor, row);
    /** The claim holding this UTR is this claimant's repeat only when it is for this invoice. */
    const sameClaim = (first: { invoice_id: number; claimed_by: number | null }) => {
      if (first.claimed_by !== actor.id) throw conflict(UTR_TAKEN);
      sameRequest('UTR', { id: [first.invoice_id, row.id] }, 'A UTR backs one payment: check the 12 digits in your UPI app.');
    };
    const first = await repo.findClaimHoldingUtr(trx, input.utr);
    if (first) {
      sameClaim(first);
      if (first.state === 'pending') return { result: { repeated: true } };
    }
    refuseUnpayable(row);
    if (row.status === 'claimed') throw conflict('A payment for this invoice is already waiting for your dietitian to confirm it.');
    // Sent again for the invoice that refused it, the UTR is refused again with the dietitian's reason.
    const refused = await repo.rejectedClaim(trx, row.id, input.utr);
    if (refused) {
      throw conflict(
        `This UTR was not accepted for this invoice${refused.reason ? ` (${refused.reason})` : ''}. Check the 12 digits in your UPI app.`,
      );
    }
    const once = await insertOnce({
      insert: () => repo.insertClaim(trx, { invoice_id: row.id, utr: input.utr, claimed_by: actor.id, created_at: now }),
      existing: () => repo.findClaimHoldingUtr(trx, input.utr),
      sameAs: sameClaim,
    });
    // Another invoice's claim took the UTR meanwhile (this invoice's own are one at a time, under its lock).
    if (!once.created) throw conflict(UTR_TAKEN);
    await repo.updateInvoice(trx, row.id, { status: 'claimed' }, now);
    await recordAudit(trx, actor, {
      action: 'invoice.claimed',
      entity: 'invoice',
      entityId: row.id,
      summary: `Payment claimed for ${row.number} with UTR ${input.utr}`,
      details: { utr: input.utr, claimId: once.row.id },
    });
    return { result: { repeated: false }, event: { kind: 'claimed', invoiceId: row.id } };
  });
  return { ...(await loadInvoice(deps.db, input.id, today)), repeated };
}

/** The plan a paid invoice started: what the dietitian is told. */
export type StartedPlan = { planName: string; startDate: string; endDate: string };

/** Where the plan on this invoice would start if it were paid now: the day after the client's running plan ends, else today. */
export async function planStartFor(db: Db, row: Pick<repo.InvoiceRow, 'client_id'>, now: Date): Promise<string> {
  const today = serviceDay(now);
  const lastDay = await repo.lastRunningSubscriptionDay(db, row.client_id, today);
  return lastDay ? addDays(lastDay, 1) : today;
}

/**
 * What paying this invoice now would start: its plan, from the day after the
 * client's running plan ends (else today), to its end. Null when the invoice
 * has no plan. The console asks before a confirmation starts a plan.
 */
export async function planOnPayment(db: Db, id: number, now: Date): Promise<StartedPlan | null> {
  const row = await repo.findInvoice(db, id);
  if (!row) throw notFound(INVOICE_MISSING);
  const plan = row.plan_type && row.plan_id ? findPlan(row.plan_type, row.plan_id) : undefined;
  if (!plan) return null;
  const startDate = await planStartFor(db, row, now);
  return { planName: plan.name, startDate, endDate: planEndDate(startDate, plan) };
}

/** "PSN/26-27/0001 is paid. Weight Loss 1 Month runs from 28 Nov 2026 to 27 Dec 2026." */
export function paidMessage(number: string, plan: StartedPlan | null): string {
  return plan
    ? `${number} is paid. ${plan.planName} runs from ${formatDay(plan.startDate)} to ${formatDay(plan.endDate)}.`
    : `${number} is paid.`;
}

/**
 * Marks an invoice paid and, when it is for a catalogue plan, starts the plan
 * (or extends it: the new period begins the day after the client's current
 * one ends), with the amount paid, in the caller's transaction. Every way an
 * invoice gets paid (a confirmed claim, the gateway, a payment recorded by
 * hand) ends here.
 */
export async function markPaid(
  trx: Db,
  row: repo.InvoiceRow,
  payment: { via: PaidVia; reference: string | null; now: Date },
): Promise<{ subscriptionId: number | null; plan: StartedPlan | null }> {
  let subscriptionId: number | null = null;
  let plan: StartedPlan | null = null;
  if (row.plan_type && row.plan_id) {
    const today = serviceDay(payment.now);
    const startDate = await planStartFor(trx, row, payment.now);
    const sub = await assignSubscription(
      trx,
      {
        clientId: row.client_id,
        planType: row.plan_type,
        planId: row.plan_id as never,
        startDate,
        // The subscription counts whole rupees; an invoice total always is one (money.ts rounds it).
        amountReceived: row.total_paise / 100,
      },
      today,
    );
    subscriptionId = sub.id;
    plan = { planName: sub.planId_fk.planName, startDate: sub.startDate, endDate: sub.endDate };
  }
  await repo.markInvoicePaid(trx, row.id, {
    status: 'paid',
    paid_at: payment.now,
    paid_via: payment.via,
    payment_reference: payment.reference,
    subscription_id: subscriptionId,
    updated_at: payment.now,
  });
  return { subscriptionId, plan };
}

/** A dietitian confirms a claimed payment: paid, the plan started or extended, in one transaction. */
export async function confirmPayment(deps: PaymentDeps, actor: SessionUser, input: { id: number }) {
  const today = serviceDay(deps.clock());
  const message = await changeInvoice(deps, input.id, async (trx, row, now) => {
    refuseUnpayable(row);
    const claim = await repo.pendingClaim(trx, row.id);
    if (row.status !== 'claimed' || !claim) throw conflict('No payment has been claimed for this invoice yet.');
    await repo.decideClaim(trx, claim.id, 'confirmed', actor.id, null, now);
    const { subscriptionId, plan } = await markPaid(trx, row, { via: 'upi', reference: claim.utr, now });
    await recordAudit(trx, actor, {
      action: 'invoice.paid',
      entity: 'invoice',
      entityId: row.id,
      summary: `Confirmed UPI payment ${claim.utr} for ${row.number} (${formatRupees(row.total_paise)})${subscriptionId ? `; subscription #${subscriptionId}` : ''}`,
      details: { utr: claim.utr, via: 'upi', subscriptionId },
    });
    return {
      result: paidMessage(row.number, plan),
      event: { kind: 'confirmed', invoiceId: row.id, planStarted: subscriptionId !== null },
    };
  });
  return { message, invoice: await loadInvoice(deps.db, input.id, today) };
}

export async function rejectPayment(deps: PaymentDeps, actor: SessionUser, input: { id: number; reason: string }) {
  const today = serviceDay(deps.clock());
  const message = await changeInvoice(deps, input.id, async (trx, row, now) => {
    refuseUnpayable(row);
    const claim = await repo.pendingClaim(trx, row.id);
    if (row.status !== 'claimed' || !claim) throw conflict('No payment has been claimed for this invoice yet.');
    await repo.decideClaim(trx, claim.id, 'rejected', actor.id, input.reason, now);
    await repo.updateInvoice(trx, row.id, { status: 'issued' }, now);
    await recordAudit(trx, actor, {
      action: 'invoice.claim_rejected',
      entity: 'invoice',
      entityId: row.id,
      summary: `Rejected UTR ${claim.utr} for ${row.number}: ${input.reason}`,
      details: { utr: claim.utr, reason: input.reason },
    });
    return {
      result: `The claim for ${row.number} was rejected; the client has been told why.`,
      event: { kind: 'rejected', invoiceId: row.id, reason: input.reason },
    };
  });
  return { message, invoice: await loadInvoice(deps.db, input.id, today) };
}

/** Cancels an unpaid invoice. It keeps its number, shown as void: numbers are never reused. */
export async function voidInvoice(deps: PaymentDeps, actor: SessionUser, input: { id: number; reason: string }) {
  const today = serviceDay(deps.clock());
  const message = await changeInvoice(deps, input.id, async (trx, row, now) => {
    if (row.status === 'paid') throw conflict(PAID_CANNOT_CHANGE);
    if (row.status === 'void') throw conflict('This invoice is already void.');
    const claim = await repo.pendingClaim(trx, row.id);
    if (claim) await repo.decideClaim(trx, claim.id, 'rejected', actor.id, `Invoice cancelled: ${input.reason}`, now);
    await repo.updateInvoice(trx, row.id, { status: 'void', voided_at: now, void_reason: input.reason }, now);
    await recordAudit(trx, actor, {
      action: 'invoice.voided',
      entity: 'invoice',
      entityId: row.id,
      summary: `Voided ${row.number}: ${input.reason}`,
      details: { reason: input.reason, pendingClaim: claim?.utr ?? null },
    });
    return { result: `${row.number} is void.`, event: { kind: 'voided', invoiceId: row.id, reason: input.reason } };
  });
  return { message, invoice: await loadInvoice(deps.db, input.id, today) };
}

/** Paid through the gateway (webhook.ts): the same as a confirmed claim, with the gateway's payment id as reference. */
export async function markPaidOnline(
  trx: Db,
  row: repo.InvoiceRow,
  payment: { reference: string; eventId: string; now: Date },
): Promise<PaymentEvent | null> {
  if (row.status === 'paid' || row.status === 'void') return null;
  const claim = await repo.pendingClaim(trx, row.id);
  if (claim) await repo.decideClaim(trx, claim.id, 'rejected', null, 'Paid online instead', payment.now);
  const { subscriptionId } = await markPaid(trx, row, { via: 'razorpay', reference: payment.reference, now: payment.now });
  await recordAudit(
    trx,
    { id: null as unknown as number, email: 'razorpay-webhook' },
    {
      action: 'invoice.paid',
      entity: 'invoice',
      entityId: row.id,
      summary: `Paid online (Razorpay ${payment.reference}) for ${row.number} (${formatRupees(row.total_paise)})${subscriptionId ? `; subscription #${subscriptionId}` : ''}`,
      details: { via: 'razorpay', reference: payment.reference, eventId: payment.eventId, subscriptionId },
    },
  );
  await repo.notifyInvoiceChanged(trx, row.id, row.client_id);
  return { kind: 'confirmed', invoiceId: row.id, planStarted: subscriptionId !== null };
}

/* ------------------------------- console ------------------------------- */

export async function paymentsSummary(db: Db, now: Date) {
  const today = serviceDay(now);
  const month = monthRange(today);
  const { counts, money } = await repo.summaryFigures(db, today, month.start, month.end);
  const byStatus = Object.fromEntries(counts.map((c) => [c.status, Number(c.n)]));
  return {
    counts: {
      issued: byStatus.issued ?? 0,
      claimed: byStatus.claimed ?? 0,
      paid: byStatus.paid ?? 0,
      void: byStatus.void ?? 0,
      overdue: Number(money.overdue),
    },
    collectedThisMonthPaise: Number(money.collected),
    outstandingPaise: Number(money.outstanding),
    claimedWaiting: byStatus.claimed ?? 0,
  };
}
