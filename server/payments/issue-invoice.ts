import { recordAudit } from '../audit/record.js';
import { clientNotFound } from '../auth/guards.js';
import type { SessionUser } from '../auth/session.js';
import { findPlan } from '../catalogue/plans.js';
import { insertOnce, sameRequest } from '../db/idempotent.js';
import { badRequest, conflict } from '../errors.js';
import { addDays, serviceDay } from '../time.js';
import { findClientAccount } from '../users/repo.js';
import { computeInvoice, invoiceLines, type LineInput, MAX_INVOICE_PAISE, taxModeFor } from './money.js';
import { notifyPaymentEvent } from './notify.js';
import { attachPaymentLink } from './payment-link.js';
import * as repo from './repo.js';
import { type CreateInvoiceInput, createInvoiceInput, financialYearOf, type Invoice, invoiceNumber, MAX_INVOICE_SEQ } from './schema.js';
import { getBillingSettings } from './billing-settings.js';
import { formatRupees, loadInvoice } from './invoices.js';
import { type PaymentDeps, SETTINGS_MISSING, parse } from './shared.js';

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
