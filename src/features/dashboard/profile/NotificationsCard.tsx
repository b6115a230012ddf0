import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell, BellOff, BellRing } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { LoadError, Loading } from '../../../components/ui/States';
import { toastError } from '../../../lib/notify';
import { isIos, isStandalone, readyRegistration } from '../../../lib/pwa';
import { toast } from '../../../lib/toast';
import { useTRPCClient } from '../../../lib/trpc';
import {
  keyBytes,
  type NotificationPreferences,
  PREFERENCE_CATEGORIES,
  type PreferenceCategory,
  subscriptionInput,
} from './notifications-api';

const LABELS: Record<PreferenceCategory, { title: string; hint: string }> = {
  messages: { title: 'Messages', hint: 'Your dietitian wrote to you or commented on your journal.' },
  reminders: { title: 'Check-in reminders', hint: 'Your next check-in is due.' },
  plans: { title: 'Diet plans', hint: 'A new diet plan is ready.' },
  appointments: { title: 'Appointments', hint: 'Reminders of your consultations.' },
  payments: { title: 'Invoices', hint: 'An invoice to pay, and receipts.' },
};

const PREFERENCES_KEY = ['notifications', 'preferences'] as const;

type PushState = 'unsupported' | 'needs-home-screen' | 'blocked' | 'off' | 'on' | 'checking';

const pushSupported = () =>
  typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** Whether this device can get push notifications, and whether it does. */
function usePushState() {
  const [state, setState] = useState<PushState>('checking');
  const [endpoint, setEndpoint] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    const check = async () => {
      if (!pushSupported()) return isIos() && !isStandalone() ? 'needs-home-screen' : 'unsupported';
      if (Notification.permission === 'denied') return 'blocked';
      const registration = await navigator.serviceWorker.getRegistration();
      const subscription = await registration?.pushManager.getSubscription();
      if (!cancelled) setEndpoint(subscription?.endpoint ?? null);
      return subscription && Notification.permission === 'granted' ? 'on' : 'off';
    };
    void check()
      .catch((): PushState => 'off')
      .then((s) => {
        if (!cancelled) setState(s);
      });
    return () => {
      cancelled = true;
    };
  }, []);
  return { state, setState, endpoint, setEndpoint };
}

/**
 * The profile's Notifications card: "Turn on notifications" for this device (why first, the browser's
 * permission prompt only after the tap), and per kind of notification whether it comes by e-mail and
 * by push.
 */
export function NotificationsCard() {
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const push = usePushState();
  const [busy, setBusy] = useState(false);

  const preferences = useQuery({ queryKey: PREFERENCES_KEY, queryFn: () => client.notifications.preferences.query(), staleTime: 0 });
  const save = useMutation({
    mutationFn: (next: NotificationPreferences) => client.notifications.setPreferences.mutate(next),
    onMutate: async (next) => {
      await queryClient.cancelQueries({ queryKey: PREFERENCES_KEY });
      const before = queryClient.getQueryData<NotificationPreferences>(PREFERENCES_KEY);
      queryClient.setQueryData(PREFERENCES_KEY, next);
      return { before };
    },
    onError: (error, _next, context) => {
      if (context?.before) queryClient.setQueryData(PREFERENCES_KEY, context.before);
      toastError(error);
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: PREFERENCES_KEY }),
  });

  const turnOn = async () => {
    setBusy(true);
    try {
      // The browser asks only now, after the tap.
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        push.setState(permission === 'denied' ? 'blocked' : 'off');
        return;
      }
      const registration = await readyRegistration();
      if (!registration) throw new Error('This browser cannot receive notifications.');
      const { publicKey: key } = await client.push.publicKey.query();
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
      await client.push.subscribe.mutate(subscriptionInput(subscription));
      push.setEndpoint(subscription.endpoint);
      push.setState('on');
      toast.success('Notifications are on for this device.');
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    setBusy(true);
    try {
      const registration = await navigator.serviceWorker.getRegistration();
      const subscription = await registration?.pushManager.getSubscription();
      const endpoint = subscription?.endpoint ?? push.endpoint;
      if (endpoint) await client.push.unsubscribe.mutate({ endpoint });
      await subscription?.unsubscribe();
      push.setEndpoint(null);
      push.setState('off');
      toast.success('Notifications are off for this device.');
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };

  const toggle = (category: PreferenceCategory, channel: 'email' | 'push', on: boolean) => {
    const current = preferences.data;
    if (!current) return;
    save.mutate({ ...current, [category]: { ...current[category], [channel]: on } });
  };

  return (
    <Card title="Notifications">
      <div className="flex flex-col gap-3 border-b border-slate-100 px-4 py-4 sm:px-5" data-testid="push-device" data-state={push.state}>
        {push.state === 'on' ? (
          <>
            <p className="flex items-center gap-2 font-semibold text-slate-900">
              <BellRing className="h-5 w-5 text-brand-700" aria-hidden="true" />
              Notifications are on for this device.
            </p>
            <Button variant="secondary" size="sm" className="self-start" onClick={() => void turnOff()} disabled={busy}>
              <BellOff className="h-4 w-4" aria-hidden="true" />
              Turn off on this device
            </Button>
          </>
        ) : (
          <>
            <p className="text-sm text-slate-700">
              Get a notification on this device when your dietitian writes to you, when a check-in is due and when a new diet plan is ready,
              even with Poshan closed. It says only what happened, never your health details.
            </p>
            {push.state === 'blocked' ? (
              <p className="text-sm font-medium text-amber-900" role="status">
                Notifications are blocked for Poshan in this browser. Allow them in the browser’s site settings, then come back here.
              </p>
            ) : push.state === 'needs-home-screen' ? (
              <p className="text-sm font-medium text-slate-900" role="status">
                On an iPhone, add Poshan to your Home Screen first (Share, then Add to Home Screen), open it from there and turn
                notifications on in its profile.
              </p>
            ) : push.state === 'unsupported' ? (
              <p className="text-sm font-medium text-slate-900" role="status">
                This browser cannot show notifications from Poshan. You still get e-mails as chosen below.
              </p>
            ) : (
              <Button className="self-start" onClick={() => void turnOn()} disabled={busy || push.state === 'checking'}>
                <Bell className="h-4 w-4" aria-hidden="true" />
                Turn on notifications
              </Button>
            )}
          </>
        )}
      </div>
      {preferences.isPending ? (
        <Loading label="Loading your notification choices" compact />
      ) : preferences.isError ? (
        <LoadError error={preferences.error} onRetry={() => void preferences.refetch()} compact />
      ) : (
        <table className="w-full text-left text-sm" data-testid="notification-preferences">
          <caption className="sr-only">How each kind of notification reaches you</caption>
          <thead>
            <tr className="text-slate-600">
              <th scope="col" className="px-4 py-2 font-medium sm:px-5">
                Notify me about
              </th>
              <th scope="col" className="w-20 px-2 py-2 text-center font-medium">
                E-mail
              </th>
              <th scope="col" className="w-20 px-2 py-2 pr-4 text-center font-medium sm:pr-5">
                Push
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {PREFERENCE_CATEGORIES.map((category) => {
              const row = preferences.data[category];
              const label = LABELS[category];
              return (
                <tr key={category} data-testid={`preference-${category}`}>
                  <th scope="row" className="px-4 py-3 font-normal sm:px-5">
                    <span className="block font-semibold text-slate-900">{label.title}</span>
                    <span className="block text-slate-600">{label.hint}</span>
                  </th>
                  {(['email', 'push'] as const).map((channel) => (
                    <td key={channel} className={`px-2 py-3 text-center ${channel === 'push' ? 'pr-4 sm:pr-5' : ''}`}>
                      <input
                        type="checkbox"
                        className="h-5 w-5 accent-brand-700"
                        checked={row?.[channel] ?? false}
                        aria-label={`${label.title} by ${channel === 'email' ? 'e-mail' : 'push notification'}`}
                        onChange={(e) => toggle(category, channel, e.target.checked)}
                      />
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </Card>
  );
}
