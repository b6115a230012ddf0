import { recordAudit } from '../audit/record.js';
import type { SessionUser } from '../auth/session.js';
import { insertOnce, sameRequest } from '../db/idempotent.js';
import { conflict } from '../errors.js';
import { serviceDay } from '../time.js';
import * as repo from './repo.js';
import { changeInvoice, loadInvoice, mayRead, refuseUnpayable } from './invoices.js';
import { type PaymentDeps, UTR_TAKEN } from './shared.js';

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
