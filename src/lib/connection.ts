/**
 * Whether the server can be reached. A network error or a 502/503/504 means
 * "not right now", never "signed out": the page shows a calm Reconnecting…
 * notice, polls /readyz with backoff, and when the server answers again
 * reports it, so the app refetches what it shows.
 */
const listeners = new Set<() => void>();
const recoveredListeners = new Set<() => void>();
let unreachable = false;
let probing = false;

const PROBE_FIRST_MS = 1_000;
const PROBE_MAX_MS = 5_000;

function set(next: boolean) {
  if (unreachable === next) return;
  unreachable = next;
  for (const l of listeners) l();
  if (!next) for (const l of recoveredListeners) l();
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function probeUntilReachable() {
  if (probing) return;
  probing = true;
  try {
    for (let delay = PROBE_FIRST_MS; unreachable; delay = Math.min(PROBE_MAX_MS, delay * 2)) {
      await wait(delay);
      try {
        const res = await fetch('/readyz', { cache: 'no-store' });
        if (res.ok) set(false);
      } catch {
        // still unreachable
      }
    }
  } finally {
    probing = false;
  }
}

export const connection = {
  isUnreachable: () => unreachable,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  /** Runs when the server answers again after an outage. */
  onRecovered(listener: () => void) {
    recoveredListeners.add(listener);
    return () => {
      recoveredListeners.delete(listener);
    };
  },
  /** A call failed because the server could not be reached or is briefly unavailable. */
  reportOutage() {
    set(true);
    void probeUntilReachable();
  },
};
