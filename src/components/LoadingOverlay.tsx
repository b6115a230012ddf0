import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

/**
 * While a form submits, a full-page loading overlay with a spinner.
 * `run` shows it for the duration of a promise, even when several overlap.
 */
type OverlayApi = { run<T>(work: Promise<T>): Promise<T>; active: boolean };
const OverlayContext = createContext<OverlayApi | null>(null);

export function LoadingOverlayProvider({ children }: { children: ReactNode }) {
  const [count, setCount] = useState(0);
  const run = useCallback(async <T,>(work: Promise<T>) => {
    setCount((n) => n + 1);
    try {
      return await work;
    } finally {
      setCount((n) => n - 1);
    }
  }, []);
  const api = useMemo(() => ({ run, active: count > 0 }), [run, count]);
  return (
    <OverlayContext.Provider value={api}>
      {children}
      {count > 0 && (
        <div
          className="fixed inset-0 z-[2000] flex items-center justify-center bg-black/40"
          role="alertdialog"
          aria-busy="true"
          aria-label="Please wait"
          data-testid="loading-overlay"
        >
          <span className="h-14 w-14 animate-spin rounded-full border-4 border-white/40 border-t-white" aria-hidden="true" />
        </div>
      )}
    </OverlayContext.Provider>
  );
}

export function useLoadingOverlay(): OverlayApi {
  const api = useContext(OverlayContext);
  if (!api) throw new Error('useLoadingOverlay must be used inside LoadingOverlayProvider');
  return api;
}
