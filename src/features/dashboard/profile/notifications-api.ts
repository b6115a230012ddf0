import type { TRPCClient } from '@trpc/client';
import type { AppRouter } from '../../../../server/trpc/root';

/**
 * The notification procedures of issue 24's server half (push.*, notifications.*), as this screen
 * calls them. Until that half is merged into this branch's router they are described here and
 * reached through the same tRPC client (its proxy calls any path); once merged, `notificationApi`
 * can return the client itself and these types come from the router.
 */
export type Channels = { email: boolean; push: boolean };
export const PREFERENCE_CATEGORIES = ['messages', 'reminders', 'plans', 'appointments', 'payments'] as const;
export type PreferenceCategory = (typeof PREFERENCE_CATEGORIES)[number];
export type NotificationPreferences = Record<PreferenceCategory, Channels>;
export type PushSubscriptionInput = { endpoint: string; keys: { p256dh: string; auth: string } };

type NotificationProcedures = {
  push: {
    publicKey: { query(): Promise<unknown> };
    subscribe: { mutate(input: PushSubscriptionInput): Promise<unknown> };
    unsubscribe: { mutate(input: { endpoint: string }): Promise<unknown> };
  };
  notifications: {
    preferences: { query(): Promise<NotificationPreferences> };
    setPreferences: { mutate(input: NotificationPreferences): Promise<unknown> };
  };
};

export const notificationApi = (client: TRPCClient<AppRouter>) => client as unknown as NotificationProcedures;

/** The VAPID public key, whether the answer is the key itself or `{ publicKey }` / `{ key }`. */
export function vapidKeyOf(answer: unknown): string {
  if (typeof answer === 'string') return answer;
  if (typeof answer === 'object' && answer !== null) {
    const a = answer as Record<string, unknown>;
    const data = typeof a.data === 'object' && a.data !== null ? (a.data as Record<string, unknown>) : a;
    for (const name of ['publicKey', 'key']) if (typeof data[name] === 'string') return data[name] as string;
  }
  throw new Error('The server did not give a push key.');
}

/** A base64url VAPID key as the bytes PushManager.subscribe takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** What PushSubscription.toJSON() gives, checked. */
export function subscriptionInput(subscription: PushSubscription): PushSubscriptionInput {
  const json = subscription.toJSON();
  const p256dh = json.keys?.p256dh;
  const auth = json.keys?.auth;
  if (!json.endpoint || !p256dh || !auth) throw new Error('This browser gave an incomplete push subscription.');
  return { endpoint: json.endpoint, keys: { p256dh, auth } };
}
