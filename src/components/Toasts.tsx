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

/** Sonner lays toasts out full width below this width. */
const WIDE = '(min-width: 600px)';
const subscribeWide = (onChange: () => void) => {
  const list = window.matchMedia(WIDE);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
};
const isWide = () => window.matchMedia(WIDE).matches;

/**
 * Where a toast covers nothing a person needs (issue 12). Wide screens: bottom-right, since the top
 * right holds the name and Sign out, and below them each page's title-row action (Add client, New
 * plan). Phones: full width just below the 64 px top bar, over the page title, clear of the bar and
 * of the buttons at the bottom of forms and dialogs (Update, Consult).
 */
export default function Toasts() {
  const wide = useSyncExternalStore(subscribeWide, isWide, () => true);
  return (
    <>
      {/* Auto-close 5000 ms, light theme. */}
      <Toaster
        position={wide ? 'bottom-right' : 'top-center'}
        duration={5000}
        theme="light"
        richColors
        closeButton
        mobileOffset={{ top: 72 }}
      />
      <Listening />
    </>
  );
}
