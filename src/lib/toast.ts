import type { toast as sonnerToast } from 'sonner';

/**
 * Toasts without sonner in the entry chunk: the first toast loads the Toaster
 * (AppToaster mounts it), waits until it listens, then shows. Pages that never
 * toast (most public visits) never download it.
 */
type Sonner = typeof sonnerToast;
const listeners = new Set<() => void>();
let wanted = false;
let mounted: (toast: Sonner) => void = () => {};
const ready = new Promise<Sonner>((resolve) => {
  mounted = resolve;
});

function show(): Promise<Sonner> {
  if (!wanted) {
    wanted = true;
    for (const l of listeners) l();
  }
  return ready;
}

/** For AppToaster: whether a toast has been asked for, and the signal that the Toaster listens. */
export const toaster = {
  wanted: () => wanted,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  mounted: (toast: Sonner) => mounted(toast),
};

export const toast = {
  error: (...args: Parameters<Sonner['error']>) => void show().then((t) => t.error(...args)),
  success: (...args: Parameters<Sonner['success']>) => void show().then((t) => t.success(...args)),
  info: (...args: Parameters<Sonner['info']>) => void show().then((t) => t.info(...args)),
};
