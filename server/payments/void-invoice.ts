import { recordAudit } from '../audit/record.js';
import type { SessionUser } from '../auth/session.js';
import { conflict } from '../errors.js';
import { serviceDay } from '../time.js';
import * as repo from './repo.js';
import { changeInvoice, loadInvoice } from './invoices.js';
import { PAID_CANNOT_CHANGE, type PaymentDeps } from './shared.js';

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
