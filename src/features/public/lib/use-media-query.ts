import { useCallback, useSyncExternalStore } from 'react';

/** True while the media query matches; re-renders when it starts or stops matching. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** The site's mobile rules apply at 767 px wide or less. */
export const MOBILE_QUERY = '(max-width: 767px)';
/** The stories carousel shows one story below 640 px, two from 640 px. */
export const TWO_STORIES_QUERY = '(min-width: 640px)';
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

export const usePrefersReducedMotion = () => useMediaQuery(REDUCED_MOTION_QUERY);
