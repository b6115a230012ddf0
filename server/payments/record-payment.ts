import { recordAudit } from '../audit/record.js';
import type { SessionUser } from '../auth/session.js';
import { insertOnce, sameRequest } from '../db/idempotent.js';
import { badRequest } from '../errors.js';
import { formatPaise } from './money.js';
import * as repo from './repo.js';
import { PAID_VIA_LABEL, RECORDED_PAYMENT_MAX_AGE_DAYS, type RecordPaymentInput, recordPaymentInput } from './schema.js';
import { changeInvoice, getInvoice, refuseUnpayable } from './invoices.js';
import { markPaid, paidMessage } from './mark-paid.js';
import { type PaymentDeps, parse } from './shared.js';
import { addDays, serviceDay } from '../time.js';

/**
 * A dietitian records a payment that reached the clinic outside UPI claims
 * and the gateway: cash at the clinic, a bank transfer. It pays the invoice
 * whole, through the same steps as a confirmed claim (changeInvoice, then
 * markPaid: the plan starts or extends, the client hears of it, the console
 * follows live), with an audit entry. The dietitian's request key makes a
 * second submission answer the first (repeated: true); the same key with
 * other details is refused (422). The key is looked up under the invoice's
 * lock, so a repeat racing its first waits and then finds it.
 */
export async function recordPayment(deps: PaymentDeps, actor: SessionUser, input: RecordPaymentInput) {
  const v = parse(recordPaymentInput, input);
  const today = serviceDay(deps.clock());
  if (v.receivedOn > today) {
    const message = 'The day received cannot be in the future';
    throw badRequest(message, { receivedOn: [message] });
  }
  if (v.receivedOn < addDays(today, -RECORDED_PAYMENT_MAX_AGE_DAYS)) {
    const message = 'The day received must be within the last year';
    throw badRequest(message, { receivedOn: [message] });
  }
  const sameAsFirst = (first: repo.OfflinePaymentRow) =>
    sameRequest('clientRequestId', {
      id: [first.invoice_id, v.id],
      method: [first.method, v.method],
      amountPaise: [Number(first.amount_paise), v.amountPaise],
      reference: [first.reference, v.reference],
      receivedOn: [first.received_on, v.receivedOn],
    });

  const message = await changeInvoice(deps, v.id, async (trx, row, now) => {
    const first = await repo.findOfflinePaymentByKey(trx, actor.id, v.clientRequestId);
    if (first) {
      sameAsFirst(first);
      return { result: null };
    }
    refuseUnpayable(row);
    if (v.amountPaise !== Number(row.total_paise)) {
      const message = `The amount must be the invoice’s total, ${formatPaise(Number(row.total_paise))}: a recorded payment pays the invoice whole`;
      throw badRequest(message, { amountPaise: [message] });
    }
    const once = await insertOnce({
      insert: () =>
        repo.insertOfflinePayment(trx, {
          invoice_id: row.id,
          method: v.method,
          amount_paise: v.amountPaise,
          reference: v.reference,
          received_on: v.receivedOn,
          recorded_by: actor.id,
          client_request_id: v.clientRequestId,
          created_at: now,
        }),
      existing: () => repo.findOfflinePaymentByKey(trx, actor.id, v.clientRequestId),
      sameAs: sameAsFirst,
    });
    if (!once.created) return { result: null };
    // A UPI claim still waiting is settled by this payment: the client is not asked about it again.
    const claim = await repo.pendingClaim(trx, row.id);
    if (claim)
      await repo.decideClaim(trx, claim.id, 'rejected', actor.id, `Paid by ${PAID_VIA_LABEL[v.method].toLowerCase()} instead`, now);
    const { subscriptionId, plan } = await markPaid(trx, row, { via: v.method, reference: v.reference, now });
    await recordAudit(trx, actor, {
      action: 'invoice.paid',
      entity: 'invoice',
      entityId: row.id,
      summary: `Recorded ${PAID_VIA_LABEL[v.method].toLowerCase()} payment${v.reference ? ` ${v.reference}` : ''} received ${v.receivedOn} for ${row.number} (${formatPaise(v.amountPaise)})${subscriptionId ? `; subscription #${subscriptionId}` : ''}`,
      details: {
        via: v.method,
        reference: v.reference,
        receivedOn: v.receivedOn,
        amountPaise: v.amountPaise,
        offlinePaymentId: once.row.id,
        pendingClaim: claim?.utr ?? null,
        subscriptionId,
      },
    });
    return {
      result: paidMessage(row.number, plan),
      event: { kind: 'confirmed' as const, invoiceId: row.id, planStarted: subscriptionId !== null },
    };
  });
  const invoice = await getInvoice(deps.db, actor, v.id, today);
  return message === null
    ? { message: 'This payment was recorded already.', invoice: { ...invoice, repeated: true } }
    : { message, invoice: { ...invoice, repeated: false } };
}
