import { z } from 'zod';

/**
 * Web push subscriptions: what a browser's PushSubscription holds
 * (its toJSON()). zod only: the client's "Turn on notifications" flow sends
 * these. Whether the endpoint belongs to a push service is decided on the
 * server (server/push/endpoint.ts).
 */
const base64url = (label: string, bytes: number) =>
  z
    .string({ error: `${label} is required` })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${label} must be URL-safe base64`)
    .refine((v) => v.replace(/=+$/, '').length === Math.ceil((bytes * 4) / 3), { message: `${label} must be ${bytes} bytes` });

export const pushEndpoint = z
  .string({ error: 'endpoint is required' })
  .min(1, 'endpoint is required')
  .max(1024, 'endpoint must be at most 1024 characters')
  // Push endpoints are plain ASCII URLs: no spaces, no control characters.
  .regex(/^[\x21-\x7e]+$/, 'endpoint must be a URL');

/** What PushSubscription.toJSON() gives; other keys it carries (expirationTime, unused: the push service says when a subscription is gone) are dropped. */
export const subscribeInput = z.object({
  endpoint: pushEndpoint,
  keys: z.object(
    {
      /** The browser's P-256 public key, uncompressed (65 bytes). */
      p256dh: base64url('keys.p256dh', 65),
      /** The shared authentication secret (16 bytes). */
      auth: base64url('keys.auth', 16),
    },
    { error: 'keys must be { p256dh, auth }' },
  ),
});
export type SubscribeInput = z.infer<typeof subscribeInput>;

export const unsubscribeInput = z.strictObject({ endpoint: pushEndpoint });

export const publicKeyOutput = z.object({ publicKey: z.string() });
export const subscribedOutput = z.object({ endpoint: z.string(), subscribedAt: z.date() });
export const unsubscribedOutput = z.object({ removed: z.boolean() });
