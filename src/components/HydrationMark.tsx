import { useEffect, useSyncExternalStore } from 'react';
import { replayHeldTaps } from '../lib/held-taps';

const noSubscription = () => () => {};

/**
 * Marks the page interactive: the prerendered HTML is hydrated (or the app rendered) and settled.
 * Hydration renders what the server rendered (a visitor, a phone-width layout, no query string);
 * React then re-renders every component whose store reads differently in this browser (the session,
 * media queries, the search) in one pass. This marker reads such a store too (false on the server,
 * true here), so it re-renders in that same pass, and its effect runs only once it has committed.
 * Until then the page's inline loader holds taps and submits (server/http/paint-first.ts); they are
 * carried out here, right after the mark, which tells the loader to let later ones through.
 */
export function HydrationMark() {
  const settled = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  useEffect(() => {
    if (!settled) return;
    document.documentElement.dataset.hydrated = 'true';
    replayHeldTaps();
  }, [settled]);
  return null;
}
