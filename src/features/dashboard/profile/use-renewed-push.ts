import { useEffect } from 'react';
import { useTRPCClient } from '../../../lib/trpc';
import { subscriptionInput } from './notifications-api';

/**
 * Signing out removes this device's push subscription on the server (its
 * sign-in ended), but the browser keeps it, and its permission. So each
 * time the dashboard opens for a sign-in on a device where notifications are
 * on, the browser's subscription is handed to the server again (the same
 * endpoint is one row, now this sign-in's). Nothing is asked of the person.
 */
export function useRenewedPushSubscription(userId: number | null) {
  const client = useTRPCClient();
  useEffect(() => {
    if (userId === null || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    if (!('serviceWorker' in navigator)) return;
    let cancelled = false;
    void (async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      const subscription = await registration?.pushManager.getSubscription();
      if (!subscription || cancelled) return;
      await client.push.subscribe.mutate(subscriptionInput(subscription));
    })().catch(() => {
      // Offline, or the browser dropped it: the profile's switch shows the state and turns it on again.
    });
    return () => {
      cancelled = true;
    };
  }, [client, userId]);
}
