import { useEffect, useSyncExternalStore } from 'react';
import { Toaster, toast } from 'sonner';
import { toaster } from '../lib/toast';

/** Runs after the Toaster's own effects (siblings run in order), so it already listens. */
function Listening() {
  useEffect(() => {
    toaster.mounted(toast);
  }, []);
  return null;
}

/** Below the drawer's breakpoint the top bar is all the chrome there is (see Toasts). */
const NARROW = '(max-width: 767.98px)';
const subscribeNarrow = (onChange: () => void) => {
  const list = window.matchMedia(NARROW);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
};
const isNarrow = () => window.matchMedia(NARROW).matches;

/** The 64 px top bar of every area (public, dashboard, console). */
const BAR = 64;
/** The menu button at the bar's left edge stays uncovered: a toast must never block the way around. */
const MENU_BUTTON_CLEARANCE = 56;

/**
 * Top-right, as the spec says, and over nothing a person is reading. Wide screens: just below the top
 * bar, in the margin right of the page's column, so the name, Sign out and the page title stay clear.
 * Phones and small tablets: inside the top bar itself, right of the menu button, compact so a one- or
 * two-line message fits the bar; the page title and the drawer's links below it stay visible. What
 * it covers there (the name and Sign out) is back in five seconds, at once with the close button,
 * or with a swipe up or right.
 */
export default function Toasts() {
  const narrow = useSyncExternalStore(subscribeNarrow, isNarrow, () => false);
  const offset = narrow ? { top: 6, right: 8, left: MENU_BUTTON_CLEARANCE } : { top: BAR + 12, right: 24 };
  return (
    <>
      {/* Auto-close 5000 ms, light theme. */}
      <Toaster
        position="top-right"
        duration={5000}
        theme="light"
        richColors
        closeButton
        offset={offset}
        mobileOffset={offset}
        // Sonner's phone layout (600 px and below) centres a toast between equal margins: here it
        // spans from the menu button's edge to the right margin instead.
        className="[@media(max-width:600px)]:w-auto!"
        toastOptions={{
          className: `[@media(max-width:600px)]:w-full! ${narrow ? 'py-2.5! px-3!' : ''}`,
        }}
      />
      <Listening />
    </>
  );
}
