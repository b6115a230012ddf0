import { publicBaseUrl } from '../auth/service.js';
import type { AppDeps } from '../deps.js';
import { invoiceIssuedMail, invoiceVoidedMail, paymentClaimedMail, paymentConfirmedMail, paymentRejectedMail } from './mails.js';
import { findInvoicePeople } from './repo.js';

/**
 * "Both sides hear of it": the one place a payment event reaches people.
 * Mail through the outbox today; push notifications (the PWA issue) plug in
 * here, so no service has to change when they land. Called after the change
 * has committed; reads what it tells from the database.
 */
export type PaymentEvent =
  | { kind: 'issued'; invoiceId: number }
  | { kind: 'claimed'; invoiceId: number }
  | { kind: 'confirmed'; invoiceId: number; planStarted: boolean }
  | { kind: 'rejected'; invoiceId: number; reason: string }
  | { kind: 'voided'; invoiceId: number; reason: string };

export type NotifyDeps = Pick<AppDeps, 'db' | 'mailer' | 'config' | 'logger'>;

export async function notifyPaymentEvent(deps: NotifyDeps, event: PaymentEvent): Promise<void> {
  try {
    const p = await findInvoicePeople(deps.db, event.invoiceId);
    if (!p) return;
    const base = publicBaseUrl(deps);
    const client = p.client_active ? { to: p.client_email, firstName: p.client_first, link: `${base}/dashboard/payments` } : null;
    const dietitian = p.dietitian_email
      ? { to: p.dietitian_email, firstName: p.dietitian_first ?? '', link: `${base}/admin/payments` }
      : null;
    const mails = [];
    if (event.kind === 'issued' && client)
      mails.push(invoiceIssuedMail({ ...client, number: p.number, totalPaise: p.total_paise, dueOn: p.due_on }));
    if (event.kind === 'claimed' && dietitian)
      mails.push(paymentClaimedMail({ ...dietitian, number: p.number, totalPaise: p.total_paise }));
    if (event.kind === 'confirmed') {
      if (client)
        mails.push(paymentConfirmedMail({ ...client, number: p.number, totalPaise: p.total_paise, planStarted: event.planStarted }));
      if (dietitian) mails.push(paymentConfirmedMail({ ...dietitian, number: p.number, totalPaise: p.total_paise, planStarted: false }));
    }
    if (event.kind === 'rejected' && client) mails.push(paymentRejectedMail({ ...client, number: p.number, reason: event.reason }));
    if (event.kind === 'voided' && client) mails.push(invoiceVoidedMail({ ...client, number: p.number, reason: event.reason }));
    for (const mail of mails) await deps.mailer.queue(mail);
  } catch (error) {
    // The change itself has committed; a mail that could not be queued is logged, never turned into a failed answer.
    deps.logger.error('payment notification failed', { invoiceId: event.invoiceId, kind: event.kind, error: String(error) });
  }
}
