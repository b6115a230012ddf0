import { useSyncExternalStore } from 'react';
import { session } from './session';

/** Re-renders when the session changes (this tab or another). */
export function useSignedIn(): boolean {
  return useSyncExternalStore(session.subscribe, session.isSignedIn, () => false);
}

export function useSessionInfo() {
  const raw = useSyncExternalStore(
    session.subscribe,
    () => localStorage.getItem('info'),
    () => null,
  );
  return raw ? session.info() : null;
}
