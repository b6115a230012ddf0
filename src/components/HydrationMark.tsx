import { useEffect, useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * Marks the page interactive: the prerendered HTML is hydrated (or the app rendered) and settled.
 * Hydration renders what the server rendered (a visitor, a phone-width layout, no query string);
 * React then re-renders every component whose store reads differently in this browser (the session,
 * media queries, the search) in one pass. This marker reads such a store too (false on the server,
 * true here), so it re-renders in that same pass, and its effect runs only once it has committed.
 * Until then a click on a prerendered button can be lost, so browser tests wait for the mark.
 */
export function HydrationMark() {
  const settled = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  useEffect(() => {
    if (settled) document.documentElement.dataset.hydrated = 'true';
  }, [settled]);
  return null;
}
