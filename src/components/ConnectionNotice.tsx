import { useSyncExternalStore } from 'react';
import { connection } from '../lib/connection';

/**
 * While the server cannot be reached: a calm notice that the app is
 * reconnecting (nobody is signed out by an outage). The live region is always
 * present, so screen readers announce the change; it empties on recovery.
 */
export function ConnectionNotice() {
  const unreachable = useSyncExternalStore(connection.subscribe, connection.isUnreachable, () => false);
  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-[calc(var(--app-bottom-bar,0px)+1rem)] z-[1070] flex justify-center px-4"
    >
      {unreachable && (
        <p
          data-testid="connection-notice"
          className="flex items-center gap-2 rounded-full bg-slate-800 px-4 py-2 text-sm font-medium text-white shadow-lg"
        >
          <span className="h-3 w-3 rounded-full border-2 border-white/40 border-t-white motion-safe:animate-spin" aria-hidden="true" />
          Reconnecting…
        </p>
      )}
    </div>
  );
}
