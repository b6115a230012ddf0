import { useEffect, useState } from 'react';
import { REDUCED_MOTION_QUERY } from './use-media-query';

/** Counters reach their target in about 4000 ms, ticking every 24 ms. */
export const COUNT_DURATION_MS = 4000;
export const COUNT_TICK_MS = 24;

/** How much each tick adds: the target spread over 4 s of ticks, and never less than 1. */
export const countStep = (target: number) => Math.max(1, target / (COUNT_DURATION_MS / COUNT_TICK_MS));

/**
 * Counts from 0 up to `target` once `start` turns true. Shows the target at
 * once when the visitor prefers reduced motion.
 */
export function useCountUp(target: number, start: boolean): number {
  const [value, setValue] = useState(0);
  useEffect(() => {
    if (!start) return;
    if (window.matchMedia(REDUCED_MOTION_QUERY).matches) {
      setValue(target);
      return;
    }
    const step = countStep(target);
    const timer = window.setInterval(() => {
      setValue((v) => {
        const next = Math.min(target, v + step);
        if (next >= target) window.clearInterval(timer);
        return next;
      });
    }, COUNT_TICK_MS);
    return () => window.clearInterval(timer);
  }, [target, start]);
  return Math.floor(value);
}
