import { useSyncExternalStore } from 'react';
import { connection } from './connection';
import { isOutage } from './outage';
import { errorMessage } from './errors';
import { newRequestKey } from './request-key';

/**
 * Things the user made without a connection, kept on this device until the server acknowledges them
 * (decision 116). Each item carries the idempotency key its create takes, so sending it again after a
 * lost answer never stores it twice; an item is removed only when the server has answered. Weights and
 * check-ins use it (src/features/dashboard/offline-senders.ts); another kind of item (a meal entry)
 * joins by registering a sender for its kind. Messages keep their own list with the same rules
 * (features/messages/pending-messages.ts): a chat shows its unsent messages in the thread.
 *
 * Held in localStorage per user: signing out clears localStorage (lib/session.ts), and another user's
 * items are never read. Sending runs one at a time across the tabs of this browser (a Web Lock).
 */

export type QueuedState = 'waiting' | 'sending' | 'failed';

export type QueuedItem<P = unknown> = {
  /** The idempotency key of the create: a second item with the same key replaces the first. */
  key: string;
  kind: string;
  payload: P;
  /** When it was made (ISO). */
  queuedAt: string;
  state: QueuedState;
  /** Why the server refused it (state 'failed'). */
  error?: string;
};

/** Sends one item; resolves once the server has stored it. */
export type Sender<P> = (payload: P) => Promise<unknown>;

const PREFIX = 'poshan:queue:';
const keyOf = (userId: number) => `${PREFIX}${userId}`;
const senders = new Map<string, { send: Sender<never>; onSent?: () => void }>();
const listeners = new Set<() => void>();
const snapshots = new Map<number, readonly QueuedItem[]>();
const inFlight = new Set<string>();

function isItem(value: unknown): value is QueuedItem {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.key === 'string' && typeof v.kind === 'string' && typeof v.queuedAt === 'string' && 'payload' in v;
}

function read(userId: number): readonly QueuedItem[] {
  try {
    const raw = localStorage.getItem(keyOf(userId));
    const list: unknown = raw ? JSON.parse(raw) : [];
    // An item left 'sending' by a closed page was never acknowledged: it waits to go again.
    return Array.isArray(list) ? list.filter(isItem).map((i) => (i.state === 'sending' ? { ...i, state: 'waiting' as const } : i)) : [];
  } catch {
    return [];
  }
}

function write(userId: number, list: readonly QueuedItem[]) {
  try {
    if (list.length === 0) localStorage.removeItem(keyOf(userId));
    else localStorage.setItem(keyOf(userId), JSON.stringify(list));
  } catch {
    // Storage full or refused (private mode): the item still shows and sends while the page is open.
  }
  snapshots.set(userId, list);
  for (const l of listeners) l();
}

function update(userId: number, change: (list: readonly QueuedItem[]) => readonly QueuedItem[]) {
  write(userId, change(snapshots.get(userId) ?? read(userId)));
}

const withState = (key: string, state: QueuedState, error?: string) => (list: readonly QueuedItem[]) =>
  list.map((i) => (i.key === key ? { ...i, state, ...(error ? { error } : { error: undefined }) } : i));

/** How items of one kind are sent, and what to refresh once one is stored. */
export function registerSender<P>(kind: string, send: Sender<P>, onSent?: () => void): () => void {
  senders.set(kind, { send: send as Sender<never>, onSent });
  return () => {
    if (senders.get(kind)?.send === send) senders.delete(kind);
  };
}

/** Keeps an item to send when the connection returns (replacing one with the same key), then tries at once. */
export function enqueue<P>(userId: number, kind: string, key: string, payload: P): void {
  const item: QueuedItem<P> = { key, kind, payload, queuedAt: new Date().toISOString(), state: 'waiting' };
  update(userId, (list) => [...list.filter((i) => i.key !== key), item]);
  void flush(userId);
}

/**
 * Changes an item before it is sent. The changed item goes under a new key (made here, put into the payload by
 * `rekey`): the first may have reached the server before its answer was lost, and the server refuses a key it
 * has seen with other details (422). Keeps the item's place in the queue. Returns the new key, or null when
 * the item is not waiting here (already sent, or being sent right now: then the change is a new item).
 */
export function editQueued<P>(userId: number, key: string, payload: P, rekey: (payload: P, key: string) => P): string | null {
  const list = snapshots.get(userId) ?? read(userId);
  const item = list.find((i) => i.key === key);
  if (!item || inFlight.has(key) || item.state === 'sending') return null;
  const fresh = newRequestKey();
  const edited: QueuedItem<P> = { ...item, key: fresh, payload: rekey(payload, fresh), state: 'waiting', error: undefined };
  update(userId, (current) => current.map((i) => (i.key === key ? edited : i)));
  void flush(userId);
  return fresh;
}

export function discard(userId: number, key: string): void {
  update(userId, (list) => list.filter((i) => i.key !== key));
}

async function sendOne(userId: number, item: QueuedItem): Promise<'sent' | 'offline' | 'refused'> {
  const sender = senders.get(item.kind);
  if (!sender || inFlight.has(item.key)) return 'offline';
  inFlight.add(item.key);
  update(userId, withState(item.key, 'sending'));
  try {
    await sender.send(item.payload as never);
    update(userId, (list) => list.filter((i) => i.key !== item.key));
    sender.onSent?.();
    return 'sent';
  } catch (error) {
    if (isOutage(error)) {
      connection.reportOutage();
      update(userId, withState(item.key, 'waiting'));
      return 'offline';
    }
    update(userId, withState(item.key, 'failed', errorMessage(error)));
    return 'refused';
  } finally {
    inFlight.delete(item.key);
  }
}

/** Sends what waits, oldest first, until the connection fails again. One tab at a time. */
export async function flush(userId: number): Promise<void> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return;
  const run = async () => {
    // Another tab may have sent some meanwhile: read the stored list again.
    snapshots.set(userId, read(userId));
    for (const item of snapshots.get(userId) ?? []) {
      if (item.state === 'failed') continue;
      if ((await sendOne(userId, item)) === 'offline') return;
    }
  };
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks) await locks.request(`poshan-offline-queue:${userId}`, run);
  else await run();
}

/** Sends again whenever the browser or the server says the connection is back. Returns the stop function. */
export function flushWhenOnline(userId: number): () => void {
  const again = () => void flush(userId);
  window.addEventListener('online', again);
  const stop = connection.onRecovered(again);
  again();
  return () => {
    window.removeEventListener('online', again);
    stop();
  };
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  // Another tab changed the list.
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key.startsWith(PREFIX)) {
      snapshots.clear();
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
};

const EMPTY: readonly QueuedItem[] = [];

function snapshot(userId: number | null): readonly QueuedItem[] {
  if (userId === null) return EMPTY;
  let list = snapshots.get(userId);
  if (!list) {
    list = read(userId);
    snapshots.set(userId, list);
  }
  return list;
}

/** The items of one kind (or all) this user has not yet had acknowledged, oldest first. */
export function useQueued<P = unknown>(userId: number | null, kind?: string): readonly QueuedItem<P>[] {
  const all = useSyncExternalStore(
    subscribe,
    () => snapshot(userId),
    () => EMPTY,
  );
  return (kind ? all.filter((i) => i.kind === kind) : all) as readonly QueuedItem<P>[];
}

/**
 * Sends now when the connection allows, else keeps it to send later: 'sent' once the server stored it,
 * 'queued' when it waits on this device. A refusal by the server (bad input) throws, as a direct call would.
 */
export async function sendOrQueue<P>(userId: number, kind: string, key: string, payload: P): Promise<'sent' | 'queued'> {
  const sender = senders.get(kind);
  if (!sender) throw new Error(`No sender for queued ${kind}`);
  if (navigator.onLine === false) {
    enqueue(userId, kind, key, payload);
    return 'queued';
  }
  try {
    await sender.send(payload as never);
    sender.onSent?.();
    return 'sent';
  } catch (error) {
    if (!isOutage(error)) throw error;
    connection.reportOutage();
    enqueue(userId, kind, key, payload);
    return 'queued';
  }
}
