import { useEffect } from 'react';
import { Toaster, toast } from 'sonner';
import { toaster } from '../lib/toast';

/** Runs after the Toaster's own effects (siblings run in order), so it already listens. */
function Listening() {
  useEffect(() => {
    toaster.mounted(toast);
  }, []);
  return null;
}

export default function Toasts() {
  return (
    <>
      {/* Top-right, auto-close 5000 ms, light theme. */}
      {/* Below the 64 px top bars, so a toast never covers the name and Sign out (issue 12). */}
      <Toaster position="top-right" duration={5000} theme="light" richColors closeButton offset={{ top: 76 }} mobileOffset={{ top: 72 }} />
      <Listening />
    </>
  );
}
