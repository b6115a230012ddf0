import { useCallback, useEffect, useState } from 'react';

/**
 * The rendered width of an element, so an SVG chart can be drawn at its real
 * size (text stays readable on a phone instead of shrinking with the viewBox).
 * `ref` is a callback ref: an element that appears later is measured too.
 */
export function useWidth<T extends HTMLElement>(fallback: number) {
  const [element, setElement] = useState<T | null>(null);
  const [width, setWidth] = useState(fallback);
  const ref = useCallback((el: T | null) => setElement(el), []);
  useEffect(() => {
    if (!element) return;
    const measure = () => {
      const measured = Math.round(element.getBoundingClientRect().width);
      // Hidden (display: none) measures 0: keep the last width.
      if (measured > 0) setWidth(Math.max(240, measured));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return { ref, width };
}
