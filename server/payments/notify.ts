import { publicBaseUrl } from '../http/public-url.js';
import type { AppDeps } from '../deps.js';
import { invoiceIssuedMail, invoiceVoidedMail, paymentClaimedMail, paymentConfirmedMail, paymentRejectedMail } from './mails.js';
import { findInvoicePeople } from './repo.js';
import type { Mail } from '../mail/mailer.js';
import { type UserNotice, sendNotices } from '../notifications/notify.js';

/**
 * "Both sides hear of it": the one place a payment event reaches people,
 * through the notification point (e-mail and push, as each person's
 * "payments" preferences allow). Called once, after the change has
 * committed; reads what it tells from the database. A push names the event
 * and the invoice number only.
 */
export type PaymentEvent =
  | { kind: 'issued'; invoiceId: number }
  | { kind: 'claimed'; invoiceId: number }
  | { kind: 'confirmed'; invoiceId: number; planStarted: boolean }
  | { kind: 'rejected'; invoiceId: number; reason: string }
  | { kind: 'voided'; invoiceId: number; reason: string };

export type NotifyDeps = Pick<AppDeps, 'db' | 'mailer' | 'config' | 'logger'> & Partial<Pick<AppDeps, 'jobs'>>;

const PUSH_TITLES: Record<PaymentEvent['kind'], { client: string; dietitian: string }> = {
  issued: { client: 'New invoice from your dietitian', dietitian: 'Invoice issued' },
  claimed: { client: 'Payment sent for confirmation', dietitian: 'A payment to confirm' },
  confirmed: { client: 'Payment received', dietitian: 'Payment confirmed' },
  rejected: { client: 'Payment not confirmed', dietitian: 'Payment not confirmed' },
  voided: { client: 'Invoice cancelled', dietitian: 'Invoice cancelled' },
};

export async function notifyPaymentEvent(deps: NotifyDeps, event: PaymentEvent): Promise<void> {
  try {
    const p = await findInvoicePeople(deps.db, event.invoiceId);
    if (!p) return;
    const base = publicBaseUrl(deps);
    const client = p.client_active ? { to: p.client_email, firstName: p.client_first, link: `${base}/dashboard/payments` } : null;
    const dietitian = p.dietitian_email
      ? { to: p.dietitian_email, firstName: p.dietitian_first ?? '', link: `${base}/admin/payments` }
      : null;
    const notices: UserNotice[] = [];
    // Each event is told once by its caller; the moment keeps a later event of the same kind (claimed again after a rejection) its own notice.
    const at = Date.now();
    const tell = (side: 'client' | 'dietitian', userId: number | null, mail: Mail) => {
      if (userId === null) return;
      notices.push({
        userId,
        category: 'payments',
        key: `payment:${p.id}:${event.kind}:${side}:${at}`,
        push: {
          title: PUSH_TITLES[event.kind][side],
          body: `Invoice ${p.number}`,
          path: side === 'client' ? '/dashboard/payments' : '/admin/payments',
        },
        mail,
      });
    };
    if (event.kind === 'issued' && client)
      tell('client', p.client_id, invoiceIssuedMail({ ...client, number: p.number, totalPaise: p.total_paise, dueOn: p.due_on }));
    if (event.kind === 'claimed' && dietitian)
      tell('dietitian', p.dietitian_id, paymentClaimedMail({ ...dietitian, number: p.number, totalPaise: p.total_paise }));
    if (event.kind === 'confirmed') {
      if (client)
        tell(
          'client',
          p.client_id,
          paymentConfirmedMail({ ...client, number: p.number, totalPaise: p.total_paise, planStarted: event.planStarted }),
        );
      if (dietitian)
        tell(
          'dietitian',
          p.dietitian_id,
          paymentConfirmedMail({ ...dietitian, number: p.number, totalPaise: p.total_paise, planStarted: false }),
        );
    }
    if (event.kind === 'rejected' && client)
      tell('client', p.client_id, paymentRejectedMail({ ...client, number: p.number, reason: event.reason }));
    if (event.kind === 'voided' && client)
      tell('client', p.client_id, invoiceVoidedMail({ ...client, number: p.number, reason: event.reason }));
    await sendNotices(deps, notices);
  } catch (error) {
    // The change itself has committed; a notice that could not be recorded is logged, never turned into a failed answer.
    deps.logger.error('payment notification failed', { invoiceId: event.invoiceId, kind: event.kind, error: String(error) });
  }
}
