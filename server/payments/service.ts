/**
 * Invoices and payments. Every amount is computed here from the catalogue, the lines a dietitian
 * typed and the clinic's settings (money.ts); every change runs in one transaction with its audit
 * entry and its NOTIFY; people hear of it through notify.ts once it has committed.
 *
 * One use case per file; this module is the door the routers use: billing-settings.ts,
 * issue-invoice.ts, invoices.ts (reading, and changeInvoice, the one way an invoice's state changes),
 * claim.ts (a client's UPI claim), mark-paid.ts (confirm, reject, paid online), void-invoice.ts,
 * record-payment.ts (cash or a bank transfer), summary.ts (the console's figures).
 */
export { serviceDay } from '../time.js';
export { taxModeFor } from './money.js';
export { getBillingSettings, saveBillingSettings } from './billing-settings.js';
export { claimPayment } from './claim.js';
export { changeInvoice, getInvoice, listInvoices, refuseUnpayable, toInvoice } from './invoices.js';
export { issueInvoice } from './issue-invoice.js';
export {
  confirmPayment,
  markPaid,
  markPaidOnline,
  paidMessage,
  planOnPayment,
  planStartFor,
  rejectPayment,
  type StartedPlan,
} from './mark-paid.js';
export { INVOICE_MISSING, PAID_CANNOT_CHANGE, type PaymentDeps, parse, SETTINGS_MISSING, UTR_TAKEN } from './shared.js';
export { paymentsSummary } from './summary.js';
export { voidInvoice } from './void-invoice.js';
