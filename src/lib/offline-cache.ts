import { dehydrate, type DehydratedState, hydrate, onlineManager, type QueryClient } from '@tanstack/react-query';
import { connection } from './connection';
import { isOutage } from './outage';
import { session } from './session';

/**
 * The dashboard's last data, kept in this browser's IndexedDB so the dashboard opens without a
 * connection showing what it showed last (decision 116). One record, tagged with its user: it is read
 * only for that user, deleted on sign-out and when another user signs in, and never goes near the
 * service worker's caches (they hold the app's code, never an answer of the API).
 * Query data is stored as it is (IndexedDB keeps Dates), only answers that succeeded.
 */

const DB_NAME = 'poshan-offline';
const STORE = 'cache';
const RECORD = 'queries';
/** Older than this, the kept data is not shown (a month-old feed is no help). */
const MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;
const SAVE_AFTER_MS = 1000;
/** Tries of a read that failed for want of a connection, each after the connection came back. */
const OUTAGE_RETRIES = 4;

type Stored = { userId: number; savedAt: number; state: DehydratedState };

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function withStore<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = run(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/** Deletes everything kept for offline use (sign-out, another user). */
export function wipeOfflineData(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof indexedDB === 'undefined') return resolve();
    const req = indexedDB.deleteDatabase(DB_NAME);
    req.onsuccess = req.onerror = req.onblocked = () => resolve();
  });
}

/** Puts the user's kept data into the query cache (before the dashboard's queries run). Another user's is deleted. */
export async function restoreOfflineData(queryClient: QueryClient, userId: number): Promise<void> {
  try {
    const stored = (await withStore('readonly', (s) => s.get(RECORD))) as Stored | undefined;
    if (!stored) return;
    if (stored.userId !== userId) {
      await wipeOfflineData();
      return;
    }
    if (Date.now() - stored.savedAt > MAX_AGE_MS) return;
    hydrate(queryClient, stored.state);
  } catch {
    // No IndexedDB (private mode in some browsers): the dashboard loads from the network as before.
  }
}

/**
 * Answers never kept: a client's nutrition targets and days. A dietitian may hide a client's numbers
 * (eating-disorder care); kept numbers would show for a moment on the next visit, before the answer
 * that hides them arrives. They are of no use offline either.
 */
export const NOT_KEPT_OFFLINE: ReadonlySet<string> = new Set(['nutritionTargets', 'nutritionDays']);
const notKept = (key: readonly unknown[]) => {
  const path = key[0];
  return Array.isArray(path) && NOT_KEPT_OFFLINE.has(String(path[0]));
};

/**
 * Keeps the query cache in IndexedDB for `userId` while the dashboard is open (a second after it
 * changes), and deletes it the moment the session ends or changes hands. Returns the stop function.
 */
export function keepOfflineData(queryClient: QueryClient, userId: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const save = () => {
    timer = undefined;
    if (stopped) return;
    const state = dehydrate(queryClient, {
      shouldDehydrateQuery: (q) => q.state.status === 'success' && q.state.data !== undefined && !notKept(q.queryKey),
    });
    const record: Stored = { userId, savedAt: Date.now(), state };
    void withStore('readwrite', (s) => s.put(record, RECORD)).catch(() => {});
  };
  const unsubscribeCache = queryClient.getQueryCache().subscribe((event) => {
    if (stopped || timer || (event.type !== 'updated' && event.type !== 'removed')) return;
    timer = setTimeout(save, SAVE_AFTER_MS);
  });
  const stop = () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    unsubscribeCache();
    unsubscribeSession();
  };
  const unsubscribeSession = session.subscribe(() => {
    if (session.isSignedIn() && session.info()?.id === userId) return;
    stop();
    void wipeOfflineData();
  });
  return stop;
}

/**
 * Makes the kept data survive the connection dropping. React Query is told the truth about the
 * connection: offline is the browser saying so (also right after a page opened offline, which React
 * Query alone would take for online) or the server not answering. A screen's fetch then waits for the
 * connection instead of failing, so a screen with kept data goes on showing it (never "Failed to
 * fetch"), and one that failed because the connection went reports the outage and tries again once it
 * is back. Writes still fail at once, as before: a form says it could not send rather than spinning.
 * Returns the function that puts everything back.
 */
export function followConnection(queryClient: QueryClient): () => void {
  onlineManager.setEventListener((setOnline) => {
    const update = () => setOnline(navigator.onLine !== false && !connection.isUnreachable());
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    const unsubscribe = connection.subscribe(update);
    update();
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
      unsubscribe();
    };
  });
  const before = queryClient.getDefaultOptions();
  const retryBefore = before.queries?.retry ?? 1;
  queryClient.setDefaultOptions({
    ...before,
    queries: {
      ...before.queries,
      retry: (failureCount, error) => {
        if (isOutage(error)) {
          // Offline now: the retry waits (paused) until the connection is back, keeping what is shown.
          // A service that keeps failing while it answers its health check is not an outage: it says so.
          connection.reportOutage();
          return failureCount < OUTAGE_RETRIES;
        }
        return typeof retryBefore === 'function' ? retryBefore(failureCount, error) : failureCount < Number(retryBefore);
      },
    },
    mutations: { ...before.mutations, networkMode: 'always' },
  });
  return () => {
    queryClient.setDefaultOptions(before);
    onlineManager.setEventListener((setOnline) => {
      const on = () => setOnline(true);
      const off = () => setOnline(false);
      window.addEventListener('online', on);
      window.addEventListener('offline', off);
      return () => {
        window.removeEventListener('online', on);
        window.removeEventListener('offline', off);
      };
    });
  };
}

/** When the data shown was last fetched (ms), for "saved at" offline; null when nothing is kept. */
export function lastSavedAt(queryClient: QueryClient): number | null {
  let latest = 0;
  for (const query of queryClient.getQueryCache().getAll()) {
    if (query.state.status === 'success') latest = Math.max(latest, query.state.dataUpdatedAt);
  }
  return latest > 0 ? latest : null;
}
