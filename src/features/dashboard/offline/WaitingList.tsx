import { AlertCircle, Clock } from 'lucide-react';
import { discard, type QueuedItem } from '../../../lib/offline-queue';

/** Items made on this device that the server has not acknowledged yet: "Waiting to send" (or why it refused one). */
export function WaitingList<P>({
  userId,
  items,
  describe,
  label,
}: {
  userId: number;
  items: readonly QueuedItem<P>[];
  describe: (payload: P) => string;
  label: string;
}) {
  if (items.length === 0) return null;
  return (
    <section aria-label={label} className="mt-5 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="waiting-list">
      <h2 className="mb-2 text-base font-semibold text-slate-900">{label}</h2>
      <ul className="flex flex-col gap-2">
        {items.map((item) => (
          <li
            key={item.key}
            className="flex flex-wrap items-center justify-between gap-2 text-sm"
            data-testid="waiting-item"
            data-state={item.state}
          >
            <span className="font-medium text-slate-900">{describe(item.payload)}</span>
            {item.state === 'failed' ? (
              <span className="flex items-center gap-2 text-red-700" role="alert">
                <AlertCircle className="h-4 w-4" aria-hidden="true" />
                Not sent{item.error ? ` — ${item.error}` : ''}
                <button type="button" className="font-semibold underline" onClick={() => discard(userId, item.key)}>
                  Remove
                </button>
              </span>
            ) : (
              <span className="flex items-center gap-1.5 text-slate-600">
                <Clock className="h-4 w-4" aria-hidden="true" />
                {item.state === 'sending' ? 'Sending…' : 'Waiting to send'}
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
