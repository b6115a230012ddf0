import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { badRequest, notFound, unauthorized } from '../errors.js';
import { notifyPaymentEvent, type PaymentEvent } from './notify.js';
import { validWebhookSignature } from './razorpay.js';
import * as repo from './repo.js';
import { markPaidOnline } from './mark-paid.js';

/**
 * POST /api/webhooks/razorpay. The signature over the raw body is checked
 * before anything else is read; then, in one transaction, the event id is
 * kept (a replay finds it and changes nothing) and a paid payment link (or
 * a captured payment naming our invoice in its notes) marks the invoice paid
 * exactly as a confirmed UPI claim does: the plan starts or extends in the
 * same transaction. Both sides are told after commit.
 */

export const WEBHOOK_NOT_CONFIGURED = 'Online payments are not set up on this server.';
export const BAD_SIGNATURE = 'The webhook signature does not match this body.';

const notes = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional();
const paymentEntity = z.object({
  id: z.string().min(1).max(64),
  amount: z.number().int(),
  currency: z.string(),
  status: z.string(),
  notes,
});
const linkEntity = z.object({
  id: z.string().min(1).max(64),
  reference_id: z.string().nullish(),
  status: z.string(),
  amount_paid: z.number().int().optional(),
  notes,
});
/** The fields of a Razorpay webhook event we read (the rest is ignored); also its description in OpenAPI. */
export const webhookEvent = z.looseObject({
  entity: z.literal('event'),
  id: z.string().min(1).max(100).optional(),
  event: z.string().min(1).max(100),
  payload: z.object({
    payment: z.object({ entity: paymentEntity }).optional(),
    payment_link: z.object({ entity: linkEntity }).optional(),
  }),
});
type WebhookEvent = z.infer<typeof webhookEvent>;

/** Which invoice and payment an event is about, or why it is not one we act on. */
function paymentOf(e: WebhookEvent): { ref: { linkId?: string; number?: string }; payment: z.infer<typeof paymentEntity> } | string {
  const payment = e.payload.payment?.entity;
  if (e.event === 'payment_link.paid') {
    const link = e.payload.payment_link?.entity;
    if (!link || !payment) return 'a payment_link.paid event without its link and payment';
    return { ref: { linkId: link.id, number: link.reference_id ?? undefined }, payment };
  }
  if (e.event === 'payment.captured') {
    const number = payment && !Array.isArray(payment.notes) ? payment.notes?.invoice_number : undefined;
    if (!payment || typeof number !== 'string') return 'a captured payment that names no invoice';
    return { ref: { number }, payment };
  }
  return `not an event Poshan acts on (${e.event})`;
}

export const webhookHandled = z.object({
  handled: z
    .enum(['paid', 'repeat', 'already_settled', 'ignored'])
    .describe(
      'paid: this event paid the invoice; repeat: the event id was handled before; already_settled: paid or void already; ignored: nothing to do',
    ),
});
export type WebhookAnswer = { handled: z.infer<typeof webhookHandled>['handled']; message: string };

export async function handleRazorpayWebhook(
  deps: Pick<AppDeps, 'db' | 'config' | 'logger' | 'mailer' | 'clock'>,
  request: { rawBody: Uint8Array; signature: string | undefined; eventId: string | undefined },
): Promise<WebhookAnswer> {
  const razorpay = deps.config.razorpay;
  if (!razorpay) throw notFound(WEBHOOK_NOT_CONFIGURED);
  if (!validWebhookSignature(request.rawBody, request.signature, razorpay.webhookSecret)) throw unauthorized(BAD_SIGNATURE);

  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(request.rawBody).toString('utf8'));
  } catch {
    throw badRequest('The webhook body must be JSON.');
  }
  const parsed = webhookEvent.safeParse(json);
  if (!parsed.success) throw badRequest('The webhook body is not a Razorpay event.');
  const event = parsed.data;
  const eventId = request.eventId?.trim() || event.id;
  if (!eventId || eventId.length > 100) throw badRequest('The webhook names no event id (x-razorpay-event-id).');

  const now = deps.clock();
  const apply = () =>
    deps.db.transaction().execute(async (trx) => {
      const settle = (outcome: Parameters<typeof repo.settleGatewayEvent>[2]) => repo.settleGatewayEvent(trx, eventId, outcome);
      if (!(await repo.recordGatewayEvent(trx, { event_id: eventId, provider: 'razorpay', kind: event.event }))) {
        return { answer: { handled: 'repeat', message: 'This event was handled before.' } as WebhookAnswer, told: null };
      }
      const about = paymentOf(event);
      if (typeof about === 'string') {
        await settle({ invoice_id: null, payment_id: null, outcome: 'ignored', detail: about });
        return { answer: { handled: 'ignored', message: `Ignored: ${about}.` } as WebhookAnswer, told: null };
      }
      const { payment } = about;
      const row = await repo.findInvoiceForGateway(trx, about.ref);
      const ignore = async (detail: string, invoiceId: number | null = null) => {
        await settle({ invoice_id: invoiceId, payment_id: payment.id, outcome: 'ignored', detail });
        deps.logger.warn('Razorpay payment not applied', { eventId, paymentId: payment.id, detail });
        return { answer: { handled: 'ignored', message: `Ignored: ${detail}.` } as WebhookAnswer, told: null };
      };
      if (!row) return ignore('no invoice has this payment link or number');
      if (payment.status !== 'captured') return ignore(`the payment is ${payment.status}, not captured`, row.id);
      if (payment.currency !== 'INR' || payment.amount !== row.total_paise) {
        return ignore(`the payment is ${payment.amount} ${payment.currency}, the invoice ${row.total_paise} INR`, row.id);
      }
      // A payment pays one invoice: an event naming it for another is answered, kept with the reason, and changes nothing.
      const paidBefore = await repo.invoicePaidByPayment(trx, 'razorpay', payment.id);
      if (paidBefore && paidBefore.id !== row.id) return ignore(`the payment ${payment.id} already paid ${paidBefore.number}`, row.id);
      const paid: PaymentEvent | null = await markPaidOnline(trx, row, { reference: payment.id, eventId, now });
      if (!paid) {
        await settle({ invoice_id: row.id, payment_id: payment.id, outcome: 'already_settled', detail: `the invoice was ${row.status}` });
        return { answer: { handled: 'already_settled', message: `${row.number} was ${row.status} already.` } as WebhookAnswer, told: null };
      }
      await settle({ invoice_id: row.id, payment_id: payment.id, outcome: 'paid', detail: null });
      return { answer: { handled: 'paid', message: `${row.number} is paid.` } as WebhookAnswer, told: paid };
    });
  let outcome: Awaited<ReturnType<typeof apply>>;
  try {
    outcome = await apply();
  } catch (error) {
    // Two events paying other invoices with one payment at once: the second waited for the first and then hit
    // the one-payment index. Handled again it sees the first's payment and is kept as not applied (never a 500,
    // which Razorpay would retry for a day).
    if (!paysOnceViolation(error)) throw error;
    outcome = await apply();
  }
  if (outcome.told) await notifyPaymentEvent(deps, outcome.told);
  return outcome.answer;
}

const paysOnceViolation = (error: unknown) => {
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown };
  return (
    e?.code === '23505' &&
    (e.constraint === 'gateway_events_one_payment_pays_once' || String(e.message).includes('gateway_events_one_payment_pays_once'))
  );
};
