import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { RazorpayConfig } from '../env.js';

/**
 * The one client of Razorpay's REST API we need (Payment Links, v1), and the
 * webhook signature check. Basic auth with the key id and secret; amounts in
 * paise; the base URL comes from the configuration (RAZORPAY_API_URL), so a
 * test points it at an HTTP server it started.
 */

/** How long a call to Razorpay may take before the invoice goes without a link (the UPI QR is still there). */
export const RAZORPAY_TIMEOUT_MS = 10_000;

export type NewPaymentLink = {
  amountPaise: number;
  /** Our invoice number: unique on Razorpay's side too (at most 40 characters). */
  referenceId: string;
  description: string;
  customerName: string;
  /** Where Razorpay sends the payer back to. */
  callbackUrl: string;
  notes: Record<string, string>;
};

/** The fields of Razorpay's Payment Link entity we read. */
const paymentLinkEntity = z.object({
  id: z.string().regex(/^plink_\w+$/),
  short_url: z.string().url(),
  status: z.string(),
  reference_id: z.string().nullish(),
  amount: z.number().int(),
});
export type PaymentLink = { id: string; shortUrl: string; status: string };

const errorBody = z.object({ error: z.object({ code: z.string().optional(), description: z.string().optional() }) });

export class RazorpayError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'RazorpayError';
  }
}

export interface RazorpayClient {
  createPaymentLink(link: NewPaymentLink): Promise<PaymentLink>;
}

export function createRazorpayClient(config: Pick<RazorpayConfig, 'apiUrl' | 'keyId' | 'keySecret'>): RazorpayClient {
  const auth = `Basic ${Buffer.from(`${config.keyId}:${config.keySecret}`).toString('base64')}`;
  return {
    async createPaymentLink(link) {
      const res = await fetch(`${config.apiUrl}/payment_links`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          amount: link.amountPaise,
          currency: 'INR',
          accept_partial: false,
          reference_id: link.referenceId,
          description: link.description,
          customer: { name: link.customerName },
          // Poshan mails the client itself; Razorpay's own SMS and mail stay off.
          notify: { sms: false, email: false },
          reminder_enable: false,
          notes: link.notes,
          callback_url: link.callbackUrl,
          callback_method: 'get',
        }),
        signal: AbortSignal.timeout(RAZORPAY_TIMEOUT_MS),
      });
      const body: unknown = await res.json().catch(() => null);
      if (!res.ok) {
        const parsed = errorBody.safeParse(body);
        const why = parsed.success ? (parsed.data.error.description ?? parsed.data.error.code) : undefined;
        throw new RazorpayError(`Razorpay refused the payment link (${res.status}${why ? `: ${why}` : ''})`, res.status);
      }
      const entity = paymentLinkEntity.safeParse(body);
      if (!entity.success || entity.data.amount !== link.amountPaise) {
        throw new RazorpayError('Razorpay answered with something that is not the payment link asked for', res.status);
      }
      return { id: entity.data.id, shortUrl: entity.data.short_url, status: entity.data.status };
    },
  };
}

/**
 * Whether `signature` (the X-Razorpay-Signature header) is the HMAC-SHA256,
 * in hex, of these exact body bytes with the webhook secret. Compared in
 * constant time; anything that is not 64 hex digits is simply wrong.
 */
export function validWebhookSignature(rawBody: Uint8Array, signature: string | undefined, secret: string): boolean {
  if (!signature || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
