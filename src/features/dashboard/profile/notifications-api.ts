import { NOTIFICATION_CATEGORIES, type NotificationCategory, type NotificationPreferences } from '../../../../server/notifications/schema';

/** The notification procedures (push.*, notifications.*) as this screen uses them; types from the server's schemas. */
export type Channels = { email: boolean; push: boolean };
export const PREFERENCE_CATEGORIES = NOTIFICATION_CATEGORIES;
export type PreferenceCategory = NotificationCategory;
export type { NotificationPreferences };
export type PushSubscriptionInput = { endpoint: string; keys: { p256dh: string; auth: string } };

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
