import { RefreshCw, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { applyUpdate, usePwaState } from '../../../lib/pwa';

/** Dismissed for this tab's session: a reload (which the waiting version survives) does not ask again. */
const DISMISSED = 'poshan:update-dismissed';
const wasDismissed = () => {
  try {
    return sessionStorage.getItem(DISMISSED) === '1';
  } catch {
    return false;
  }
};

/**
 * A new version has been downloaded: it takes over only when the user chooses (nothing is swapped
 * under a form being filled in). "Not now" puts it away for this session; the new version then starts
 * the next time the app is opened afresh.
 */
export function UpdateNotice() {
  const { updateReady } = usePwaState();
  const [dismissed, setDismissed] = useState(wasDismissed);
  const dismiss = () => {
    setDismissed(true);
    try {
      sessionStorage.setItem(DISMISSED, '1');
    } catch {
      // Storage refused: it stays put away while this page is open.
    }
  };
  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-[calc(var(--app-bottom-bar,0px)+1rem)] z-[1070] flex justify-center px-4"
    >
      {updateReady && !dismissed && (
        <p
          className="pointer-events-auto flex flex-wrap items-center gap-3 rounded-2xl bg-slate-900 py-2 pr-2 pl-4 text-sm text-white shadow-xl"
          data-testid="update-notice"
        >
          <span>A new version of Poshan is ready</span>
          <Button size="sm" variant="secondary" onClick={applyUpdate} className="min-h-11">
            <RefreshCw className="h-4 w-4" aria-hidden="true" />
            Reload
          </Button>
          <button
            type="button"
            onClick={dismiss}
            aria-label="Not now"
            className="flex h-11 w-11 items-center justify-center rounded-full text-white hover:bg-white/15"
          >
            <X className="h-5 w-5" aria-hidden="true" />
          </button>
        </p>
      )}
    </div>
  );
}
