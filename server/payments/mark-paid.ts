import { recordAudit } from '../audit/record.js';
import type { SessionUser } from '../auth/session.js';
import { findPlan } from '../catalogue/plans.js';
import type { Db } from '../db/index.js';
import { conflict, notFound } from '../errors.js';
import type { PaidVia } from '../db/schema.js';
import { formatDay } from '../format.js';
import { planEndDate } from '../subscription/period.js';
import { addDays, serviceDay } from '../time.js';
import { assignSubscription } from '../subscription/service.js';
import type { PaymentEvent } from './notify.js';
import * as repo from './repo.js';
import { changeInvoice, formatRupees, loadInvoice, refuseUnpayable } from './invoices.js';
import { INVOICE_MISSING, type PaymentDeps } from './shared.js';

/** A payment made good: a dietitian confirms a claim (or rejects it), or the gateway says it was paid; the plan starts. */

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
