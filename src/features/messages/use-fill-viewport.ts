import { type RefObject, useEffect, useLayoutEffect, useState } from 'react';

/** A chat shorter than this scrolls with the page instead (a landscape phone with its keyboard open). */
const MIN_HEIGHT_PX = 240;

const px = (value: string) => Number.parseFloat(value) || 0;

/**
 * What the page puts below an element: the padding and borders of its ancestors and what follows it in
 * the flow. Measured from the structure, not the document's height, which a min-height would pad.
 */
function roomBelow(el: HTMLElement): number {
  let below = px(getComputedStyle(el).marginBottom);
  for (let node: HTMLElement = el; node.parentElement && node !== document.body; node = node.parentElement) {
    const parent = node.parentElement;
    for (let next = node.nextElementSibling; next; next = next.nextElementSibling) {
      const style = getComputedStyle(next);
      if (style.position === 'fixed' || style.position === 'absolute' || style.display === 'none') continue;
      below += next.getBoundingClientRect().height + px(style.marginTop) + px(style.marginBottom);
    }
    const style = getComputedStyle(parent);
    below += px(style.paddingBottom) + px(style.borderBottomWidth);
  }
  return below;
}

/**
 * Sizes a chat so that it ends at the bottom of what the person can see, and the page itself does not
 * scroll: the thread is the one scroller and the composer stays in sight. "What can be seen" is the
 * visual viewport, which shrinks when a phone's keyboard opens (the layout viewport and 100dvh do not on
 * Android's default "resizes-visual" mode), so the composer stays just above the keyboard. Whatever sits
 * below the chat in the page (padding, a bottom tab bar's room) is measured and kept.
 * Answers the height in px, or null before the first measure (the caller's CSS height applies).
 */
export function useFillViewport(ref: RefObject<HTMLElement | null>, deps: readonly unknown[] = []): number | null {
  const [height, setHeight] = useState<number | null>(null);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const box = el.getBoundingClientRect();
      const top = box.top + window.scrollY;
      const below = roomBelow(el);
      const seen = window.visualViewport?.height ?? window.innerHeight;
      const next = Math.max(MIN_HEIGHT_PX, Math.floor(seen - top - below));
      setHeight((current) => (current === next ? current : next));
      // A keyboard opening may have scrolled the page to show the box; with the chat fitted, the top is the place.
      if (next > MIN_HEIGHT_PX && window.scrollY > 0 && document.documentElement.scrollHeight <= seen + 1) window.scrollTo(0, 0);
    };
    const later = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    const viewport = window.visualViewport;
    viewport?.addEventListener('resize', later);
    window.addEventListener('resize', later);
    // Something above the chat changing height (a banner coming or going) moves its top, and the room
    // below changes with the tab bar stepping aside. The page's min-height keeps the body's size steady
    // then, so every ancestor is watched (their content boxes change), not the body alone.
    const observer = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(later) : null;
    for (let node = el.parentElement; node; node = node.parentElement) observer?.observe(node);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      viewport?.removeEventListener('resize', later);
      window.removeEventListener('resize', later);
      observer?.disconnect();
    };
  }, [ref, ...deps]);

  return height;
}

/**
 * While the person writes on a phone, the bottom tab bar (components/shell/AppShell.tsx, marked
 * data-app-tabbar) steps aside: with the keyboard open it would otherwise sit on top of the composer or
 * take a third of what is left. So does a notice above the page marked data-composing-aside (the intake
 * questionnaire's prompt), which with the keyboard open would leave no room for the chat at all. Back
 * when the box loses focus.
 */
export function useTabBarAsideWhile(active: boolean) {
  useEffect(() => {
    if (!active) return;
    const root = document.documentElement;
    root.setAttribute('data-composing', '');
    return () => root.removeAttribute('data-composing');
  }, [active]);
}

/**
 * Phone toasts sit at the bottom of the screen (components/Toasts.tsx); on a chat that is where the
 * composer is, and a toast would cover Send. While a composer is on screen its height is published as
 * --app-toast-lift, which the toasts keep clear of.
 */
export function useToastsAbove(ref: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty('--app-toast-lift', `${Math.ceil(el.getBoundingClientRect().height)}px`);
    publish();
    const observer = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(publish) : null;
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      root.style.removeProperty('--app-toast-lift');
    };
  }, [ref]);
}

/** The rule that hides the tab bar while composing; rendered by the chat screens (inline styles are allowed by the CSP). */
export const TAB_BAR_ASIDE_CSS =
  '@media (max-width: 767.98px){html:root[data-composing]{--app-bottom-bar:0px}html:root[data-composing] [data-app-tabbar],html:root[data-composing] [data-composing-aside]{display:none}}';
