import { lazy, Suspense, useSyncExternalStore } from 'react';
import { toaster } from '../lib/toast';

const Toasts = lazy(() => import('./Toasts'));

/** Mounts sonner's Toaster when the first toast is asked for (lib/toast). */
export function AppToaster() {
  const wanted = useSyncExternalStore(toaster.subscribe, toaster.wanted, () => false);
  return wanted ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}
