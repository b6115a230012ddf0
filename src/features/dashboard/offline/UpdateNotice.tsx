import { RefreshCw } from 'lucide-react';
import { Button } from '../../../components/ui/Button';
import { applyUpdate, usePwaState } from '../../../lib/pwa';

/**
 * A new version has been downloaded: it takes over only when the user chooses (nothing is swapped
 * under a form being filled in).
 */
export function UpdateNotice() {
  const { updateReady } = usePwaState();
  return (
    <div role="status" aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-4 z-40 flex justify-center px-4">
      {updateReady && (
        <p
          className="pointer-events-auto flex flex-wrap items-center gap-3 rounded-2xl bg-slate-900 px-4 py-3 text-sm text-white shadow-xl"
          data-testid="update-notice"
        >
          <span>A new version of Poshan is ready</span>
          <Button size="sm" variant="secondary" onClick={applyUpdate}>
            <RefreshCw className="h-4 w-4" aria-hidden="true" />
            Reload
          </Button>
        </p>
      )}
    </div>
  );
}
