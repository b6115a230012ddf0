/**
 * Taps and submits a visitor made on a prerendered page before its JavaScript attached. The page's inline
 * loader (server/http/paint-first.ts) stops them, marks the control busy and keeps them here; the app
 * carries them out once it has hydrated (decision 102).
 */
export type HeldTap = {
  type: 'click' | 'submit';
  /** The button clicked, or the form submitted (marked so that a second tap is not kept twice). */
  target: HTMLElement & { __held?: number };
  /** The control that shows it is working: the button, or the form's submit button. */
  busy: HTMLElement;
  submitter: HTMLElement | null;
};

declare global {
  interface Window {
    __heldTaps?: HeldTap[];
  }
}

/** The class the loader puts on a held control (its look is in src/styles.css). */
export const HELD_TAP_CLASS = 'tap-held';

/**
 * Carries out every held tap, in the order they were made, on the same elements: hydration keeps the
 * prerendered nodes, and the values typed into them (React 19 and react-hook-form take values edited
 * before hydration as they are). A form is submitted again with the same submit button, so its own
 * handler validates and sends what the visitor typed. Call once the app has attached.
 */
export function replayHeldTaps(held: HeldTap[] | undefined = window.__heldTaps) {
  for (const tap of held?.splice(0) ?? []) {
    tap.busy.classList.remove(HELD_TAP_CLASS);
    tap.busy.removeAttribute('aria-busy');
    tap.target.__held = 0;
    // A node React replaced (a hydration mismatch) is no longer on the page: the visitor taps again.
    if (!tap.target.isConnected) continue;
    if (tap.type === 'submit') {
      const form = tap.target as HTMLFormElement;
      const submitter = tap.submitter instanceof HTMLButtonElement && tap.submitter.form === form ? tap.submitter : null;
      form.requestSubmit(submitter);
    } else {
      tap.target.click();
    }
  }
}
