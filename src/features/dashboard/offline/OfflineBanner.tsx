import { useQueryClient } from '@tanstack/react-query';
import { CloudOff } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { lastSavedAt } from '../../../lib/offline-cache';
import { useQueued } from '../../../lib/offline-queue';
import { useSessionInfo } from '../../../lib/use-session';
import { usePendingMessages } from '../../messages/pending-messages';
import { describeMessage, describeQueued } from './queued';

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

const savedWhen = (at: number) => {
  const d = new Date(at);
  const time = d.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  return d.toDateString() === new Date().toDateString()
    ? `today at ${time}`
    : `${d.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} at ${time}`;
};

/**
 * Above every dashboard screen while the device is offline: what is shown is the data saved on this
 * phone (and when it was saved), and everything made meanwhile (weights, check-ins, meals, messages)
 * is listed as waiting, to go as soon as the connection is back.
 */
export function OfflineBanner() {
  const offline = useOffline();
  const userId = useSessionInfo()?.id ?? null;
  const queued = useQueued(userId);
  const messages = usePendingMessages(userId);
  const queryClient = useQueryClient();
  const waiting = [
    ...queued.map((item) => ({
      key: item.key,
      at: item.queuedAt,
      text: describeQueued(item.kind, item.payload),
      failed: item.state === 'failed',
    })),
    ...messages.map((m) => ({
      key: m.clientMessageId,
      at: m.writtenAt,
      text: describeMessage(m.text, m.attachments?.length ?? 0),
      failed: m.state === 'failed',
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  const savedAt = offline ? lastSavedAt(queryClient) : null;
  return (
    <div role="status" aria-live="polite">
      {offline && (
        <div
          className="mb-4 flex items-start gap-3 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
          data-testid="offline-banner"
        >
          <CloudOff className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
          <div className="min-w-0">
            <p>
              <strong className="font-semibold">You are offline.</strong>{' '}
              <span data-testid="offline-saved">
                {savedAt ? `You are seeing what was saved on this phone ${savedWhen(savedAt)}.` : 'You are seeing what Poshan showed last.'}
              </span>{' '}
              Weights, check-ins, meals and messages you send now wait on this phone and go as soon as you are back online.
            </p>
            {waiting.length > 0 && (
              <>
                <p className="mt-2 font-semibold">{waiting.length === 1 ? '1 waiting to send:' : `${waiting.length} waiting to send:`}</p>
                <ul className="mt-1 list-disc space-y-0.5 pl-5" data-testid="offline-queued">
                  {waiting.map((item) => (
                    <li key={item.key} className="break-words">
                      {item.text}
                      {item.failed && <span className="font-semibold text-red-800"> (not sent: open it to see why)</span>}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
