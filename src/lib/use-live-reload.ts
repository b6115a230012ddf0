import { useSyncExternalStore } from 'react';
import { session } from './session';

/**
 * Whether a live subscription may run: only with a session token. The
 * WebSocket client reopens on sign-in and sign-out, and each (re)started
 * subscription begins with 'ready', on which the screen reloads its data.
 */
export function useSignedInToken(): string | null {
  return useSyncExternalStore(session.subscribe, session.token, () => null);
}

/** Dates for the follow-up screens: 23 Nov 2026 (en-IN). */
const dayFormat = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
export const formatFollowUpDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));
