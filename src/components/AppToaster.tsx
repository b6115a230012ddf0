import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { toaster } from '../lib/toast';

const Toasts = lazy(() => import('./Toasts'));

/**
 * Mounts sonner's Toaster when the first toast is asked for (lib/toast), in a React root of its own:
 * a toast must show even while the page's own tree waits on something that will not come (offline, a
 * transition suspended on data the network cannot give), and the page's tree must not wait for it.
 */
export function AppToaster() {
  const wanted = useSyncExternalStore(toaster.subscribe, toaster.wanted, () => false);
  useEffect(() => {
    if (!wanted) return;
    const host = document.createElement('div');
    host.dataset.toasts = '';
    document.body.append(host);
    const root = createRoot(host);
    root.render(
      <Suspense fallback={null}>
        <Toasts />
      </Suspense>,
    );
    return () => {
      root.unmount();
      host.remove();
    };
  }, [wanted]);
  return null;
}
