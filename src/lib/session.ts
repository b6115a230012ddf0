/**
 * The browser session, exactly as spec section 3 stores it:
 * 'user' (session token; presence means signed in), 'refresh_user' (refresh
 * token) and 'info' (JSON of {id, fullName, height, weight}).
 */
export type SessionInfo = { id: number; fullName: string; height: number | null; weight: number | null };

const KEYS = { token: 'user', refresh: 'refresh_user', info: 'info' } as const;
const listeners = new Set<() => void>();
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
  /** Spec 4: clearing the session wipes all local storage, only when signed in. */
  clear() {
    if (!session.isSignedIn()) return;
    localStorage.clear();
    notify();
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
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
