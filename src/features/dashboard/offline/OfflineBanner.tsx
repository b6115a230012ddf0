import { CloudOff } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { useQueued } from '../../../lib/offline-queue';
import { useSessionInfo } from '../../../lib/use-session';

const subscribe = (l: () => void) => {
  window.addEventListener('online', l);
  window.addEventListener('offline', l);
  return () => {
    window.removeEventListener('online', l);
    window.removeEventListener('offline', l);
  };
};

/** Whether the browser says there is no connection. */
export function useOffline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine === false,
    () => false,
  );
}

/** Above every dashboard screen while the device is offline: what is shown is the last data, and what is sent waits. */
export function OfflineBanner() {
  const offline = useOffline();
  const waiting = useQueued(useSessionInfo()?.id ?? null).length;
  return (
    <div role="status" aria-live="polite">
      {offline && (
        <p
          className="mb-4 flex items-start gap-3 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
          data-testid="offline-banner"
        >
          <CloudOff className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
          <span>
            <strong className="font-semibold">You are offline.</strong> You are seeing what Poshan showed last. Weights, check-ins and
            messages you send now wait on this device and go as soon as you are back online.
            {waiting > 0 && ` ${waiting} waiting to send.`}
          </span>
        </p>
      )}
    </div>
  );
}
