import { publicBaseUrl } from '../http/public-url.js';
import type { AppDeps } from '../deps.js';
import { createRazorpayClient } from './razorpay.js';
import * as repo from './repo.js';

/**
 * "Pay online": when the clinic has Razorpay configured, a new invoice gets a
 * Razorpay payment link for its exact total, referenced by its number. Made
 * after the invoice has committed (a slow or refusing gateway never holds a
 * number or fails an issue); without it the client still pays by UPI. The
 * link names the invoice number only, never the plan (plan names are health data).
 */
export async function attachPaymentLink(deps: Pick<AppDeps, 'db' | 'config' | 'logger'>, invoiceId: number): Promise<void> {
  const razorpay = deps.config.razorpay;
  if (!razorpay) return;
  const row = await repo.findInvoice(deps.db, invoiceId);
  if (row?.status !== 'issued' || row.razorpay_link_id) return;
  try {
    const link = await createRazorpayClient(razorpay).createPaymentLink({
      amountPaise: row.total_paise,
      referenceId: row.number,
      description: `Invoice ${row.number}`,
      customerName: row.client_name,
      callbackUrl: `${publicBaseUrl(deps)}/dashboard/payments`,
      notes: { invoice_number: row.number, invoice_id: String(row.id) },
    });
    await deps.db.transaction().execute(async (trx) => {
      if (await repo.setPaymentLink(trx, row.id, { linkId: link.id, url: link.shortUrl })) {
        await repo.notifyInvoiceChanged(trx, row.id, row.client_id);
      }
    });
  } catch (error) {
    // The invoice stands; it is paid by UPI instead. The message names the gateway's answer, never the client.
    deps.logger.warn('Razorpay payment link not made', { invoiceId, error: (error as Error).message });
  }
}
