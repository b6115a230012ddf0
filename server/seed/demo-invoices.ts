import { randomUUID } from 'node:crypto';
import { findPlan } from '../catalogue/plans.js';
import type { Db } from '../db/index.js';
import { computeInvoice, taxModeFor } from '../payments/money.js';
import * as repo from '../payments/repo.js';
import { type BillingSettings, type CreateInvoiceInput, createInvoiceInput, financialYearOf, invoiceNumber } from '../payments/schema.js';
import { assignSubscription } from '../subscription/service.js';
import { addDays, serviceDay } from '../time.js';

/**
 * Demo invoices, written as the console's "Issue an invoice" and "Confirm
 * payment" write them (the dietitian's request context is not there at
 * start): the lines and taxes computed from the catalogue and the clinic's
 * settings, the next number of the financial year, and for a paid plan the
 * subscription it starts, with the amount paid.
 */

export async function issueDemoInvoice(
  trx: Db,
  opts: {
    billing: BillingSettings;
    client: { id: number; name: string };
    dietitianId: number;
    input: Omit<CreateInvoiceInput, 'clientId' | 'clientRequestId'>;
    at: Date;
  },
) {
  const v = createInvoiceInput.parse({ ...opts.input, clientId: opts.client.id, clientRequestId: randomUUID() });
  const { billing } = opts;
  const issuedOn = serviceDay(opts.at);
  const plan = v.plan ? findPlan(v.plan.planType, v.plan.planId) : undefined;
  if (v.plan && !plan) throw new Error(`The catalogue has no plan ${v.plan.planId}`);
  const lines = [
    // The plan's line is worded as issueInvoice words it.
    ...(plan
      ? [
          {
            description: plan.name.includes(plan.duration) ? plan.name : `${plan.name} (${plan.duration})`,
            quantity: 1,
            unitPaise: plan.sellPrice * 100,
          },
        ]
      : []),
    ...v.lines,
  ];
  const clientStateCode = v.clientStateCode ?? null;
  const totals = computeInvoice({ lines, discountPaise: v.discountPaise, tax: taxModeFor(billing, clientStateCode) });
  const fy = financialYearOf(issuedOn);
  const seq = (await repo.lockInvoiceCounter(trx, fy)) + 1;
  await repo.setInvoiceCounter(trx, fy, seq);
  const inserted = await repo.insertInvoice(trx, {
    number: invoiceNumber(billing.invoicePrefix, fy, seq),
    financial_year: fy,
    seq,
    client_id: opts.client.id,
    issued_by: opts.dietitianId,
    client_request_id: v.clientRequestId,
    status: 'issued',
    issued_on: issuedOn,
    due_on: addDays(issuedOn, v.dueInDays),
    seller: JSON.stringify({ ...billing, invoicePrefix: undefined }),
    client_name: opts.client.name,
    client_state_code: clientStateCode,
    plan_type: plan?.type ?? null,
    plan_id: plan?.id ?? null,
    lines: JSON.stringify(totals.lines.map((l) => ({ ...l, sac: billing.sacCode }))),
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
    created_at: opts.at,
    updated_at: opts.at,
  });
  const row = inserted && (await repo.findInvoice(trx, inserted.id));
  if (!row) throw new Error('A demo invoice was not stored');
  return row;
}

/**
 * The client paid by UPI and sent the UTR; the dietitian confirmed it: the claim, the plan started (or
 * extended from the day after the running one ends) with the amount paid, and the invoice paid.
 */
export async function payDemoInvoice(
  trx: Db,
  invoice: repo.InvoiceRow,
  opts: { utr: string; claimedAt: Date; confirmedAt: Date; dietitianId: number },
) {
  const claim = await repo.insertClaim(trx, {
    invoice_id: invoice.id,
    utr: opts.utr,
    claimed_by: invoice.client_id,
    created_at: opts.claimedAt,
  });
  if (!claim) throw new Error('A demo payment claim was not stored');
  await repo.decideClaim(trx, claim.id, 'confirmed', opts.dietitianId, null, opts.confirmedAt);
  let subscriptionId: number | null = null;
  if (invoice.plan_type && invoice.plan_id) {
    const today = serviceDay(opts.confirmedAt);
    const lastDay = await repo.lastRunningSubscriptionDay(trx, invoice.client_id, today);
    const sub = await assignSubscription(
      trx,
      {
        clientId: invoice.client_id,
        planType: invoice.plan_type,
        planId: invoice.plan_id as never,
        startDate: lastDay ? addDays(lastDay, 1) : today,
        amountReceived: invoice.total_paise / 100,
      },
      today,
    );
    subscriptionId = sub.id;
  }
  await repo.markInvoicePaid(trx, invoice.id, {
    status: 'paid',
    paid_at: opts.confirmedAt,
    paid_via: 'upi',
    payment_reference: opts.utr,
    subscription_id: subscriptionId,
    updated_at: opts.confirmedAt,
  });
  return { subscriptionId };
}
