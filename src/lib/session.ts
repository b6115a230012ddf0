import type { RouterOutputs } from './router-types';

/**
 * The browser session, under the storage keys the product has always used:
 * 'user' (session token; presence means signed in), 'refresh_user' (refresh
 * token) and 'info' (JSON of {id, fullName, height, weight}).
 */
export type SessionInfo = Pick<RouterOutputs['auth']['signIn']['data'], 'id' | 'fullName' | 'height' | 'weight'>;

const KEYS = { token: 'user', refresh: 'refresh_user', info: 'info' } as const;
/** Not session data: the known-device token outlives sign-out, so the owner's device keeps its own sign-in limit (decision 026). */
const KNOWN_DEVICE_KEY = 'known_device';
const listeners = new Set<() => void>();
/** Between "Sign out" and the session's end: nothing but the sign-out itself is sent (auth-client.ts, signingOutLink). */
let signingOut = false;
const notify = () => {
  for (const l of listeners) l();
};

export const session = {
  token: () => localStorage.getItem(KEYS.token),
  refreshToken: () => localStorage.getItem(KEYS.refresh),
  isSignedIn: () => localStorage.getItem(KEYS.token) !== null,
  info(): SessionInfo | null {
    try {
      const raw = localStorage.getItem(KEYS.info);
      return raw ? (JSON.parse(raw) as SessionInfo) : null;
    } catch {
      return null;
    }
  },
  store(s: { token: string; refreshToken: string; info?: SessionInfo }) {
    localStorage.setItem(KEYS.token, s.token);
    localStorage.setItem(KEYS.refresh, s.refreshToken);
    if (s.info) localStorage.setItem(KEYS.info, JSON.stringify(s.info));
    notify();
  },
  updateInfo(patch: Partial<SessionInfo>) {
    const current = session.info();
    if (!current) return;
    localStorage.setItem(KEYS.info, JSON.stringify({ ...current, ...patch }));
    notify();
  },
  /** Clearing the session wipes all local storage, only when signed in. */
  clear() {
    if (!session.isSignedIn()) return;
    const device = localStorage.getItem(KNOWN_DEVICE_KEY);
    localStorage.clear();
    if (device) localStorage.setItem(KNOWN_DEVICE_KEY, device);
    notify();
  },
  beginSignOut() {
    signingOut = true;
  },
  endSignOut() {
    signingOut = false;
  },
  isSigningOut: () => signingOut,
  deviceToken: () => localStorage.getItem(KNOWN_DEVICE_KEY) ?? undefined,
  rememberDevice(token: string) {
    localStorage.setItem(KNOWN_DEVICE_KEY, token);
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    // Prerendering (scripts/build/prerender.ts) imports this module where there is no window.
    if (typeof window === 'undefined') return () => listeners.delete(listener);
    const onStorage = (e: StorageEvent) => {
      if (e.key === null || Object.values(KEYS).includes(e.key as never)) listener();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', onStorage);
    };
  },
};
