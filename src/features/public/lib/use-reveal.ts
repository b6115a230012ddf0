import { useEffect, useRef, useState } from 'react';
import { REDUCED_MOTION_QUERY } from './use-media-query';

/**
 * A section animates in once, the first time `threshold` of it is
 * visible (0.2 for connect-us and stories, 0.3 for the free-trial banner).
 * Without IntersectionObserver, or when the visitor prefers less motion, the
 * section is simply shown.
 */
export function useReveal<T extends Element>(threshold: number) {
  const ref = useRef<T>(null);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || shown) return;
    if (typeof IntersectionObserver === 'undefined' || window.matchMedia(REDUCED_MOTION_QUERY).matches) {
      setShown(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting && e.intersectionRatio >= threshold)) {
          setShown(true);
          observer.disconnect();
        }
      },
      { threshold },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [threshold, shown]);
  return { ref, shown };
}

/**
 * Classes for the animate-in: only the opacity changes, so nothing shifts the layout and nothing moves: a
 * section's buttons (the stories' Previous and Next) stay where a finger or a click already aimed as it fades in.
 */
export const revealClasses = (shown: boolean) =>
  `transition-opacity duration-700 ease-out motion-reduce:transition-none ${shown ? 'opacity-100' : 'opacity-0'}`;
