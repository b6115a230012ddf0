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
/** Room kept between a phone's toast and the screen's edges (or the tab bar below it). */
const EDGE = 12;

/**
 * Wide screens: top-right, as the spec says, just below the top bar, in the margin right of the page's
 * column, so the name, Sign out and the page title stay clear. Phones and small tablets: at the bottom,
 * where the thumb is and nothing of the top bar (the menu button, Sign out) is covered, above the
 * dashboard's tab bar when there is one (--app-bottom-bar, styles.css) and a chat's composer
 * (--app-toast-lift, features/messages/use-fill-viewport.ts). A swipe down or the close
 * button dismisses one at once; otherwise it goes in five seconds.
 */
export default function Toasts() {
  const narrow = useSyncExternalStore(subscribeNarrow, isNarrow, () => false);
  const offset = narrow
    ? { bottom: `calc(var(--app-bottom-bar, 0px) + var(--app-toast-lift, 0px) + ${EDGE}px)`, right: EDGE, left: EDGE }
    : { top: BAR + 12, right: 24 };
  return (
    <>
      {/* Auto-close 5000 ms, light theme. */}
      <Toaster
        position={narrow ? 'bottom-center' : 'top-right'}
        duration={5000}
        theme="light"
        richColors
        closeButton
        offset={offset}
        mobileOffset={offset}
        // Sonner's phone layout (600 px and below) is kept: the toast spans the width between the margins.
        className="[@media(max-width:600px)]:w-auto!"
        toastOptions={{
          className: `[@media(max-width:600px)]:w-full! ${narrow ? 'py-2.5! px-3!' : ''}`,
        }}
      />
      <Listening />
    </>
  );
}
