import { useSyncExternalStore } from 'react';

/**
 * Messages written but not yet acknowledged by the server, kept in this
 * browser so that a reload, a dropped connection or a closed tab loses
 * nothing: each keeps the `clientMessageId` it was first sent with, so a
 * resend can never make a second message. Held in localStorage per user and
 * conversation; signing out clears localStorage (lib/session.ts).
 */

/** 'waiting': no connection; it goes by itself when the connection returns. 'failed': the server refused it (Retry). */
export type PendingState = 'sending' | 'waiting' | 'failed';

export type PendingFile = { id: string; name: string; contentType: string; thumbnailUrl: string | null };

export type PendingMessage = {
  clientMessageId: string;
  conversationId: number;
  text: string;
  /** When it was written (ISO), for its place at the end of the thread. */
  writtenAt: string;
  state: PendingState;
  /** Files already uploaded for it (their ids are sent with it; names and previews show meanwhile). */
  attachments?: PendingFile[];
  /** Why the last try failed, said to the user beside "Retry". */
  error?: string;
};

const PREFIX = 'poshan:unsent:';
const keyOf = (userId: number, conversationId: number) => `${PREFIX}${userId}:${conversationId}`;

function isPending(value: unknown): value is PendingMessage {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.clientMessageId === 'string' &&
    typeof v.conversationId === 'number' &&
    typeof v.text === 'string' &&
    typeof v.writtenAt === 'string'
  );
}

/** The unsent messages of one conversation, oldest first. A message left 'sending' by a closed page is sent again. */
export function loadPending(userId: number, conversationId: number): PendingMessage[] {
  try {
    const raw = localStorage.getItem(keyOf(userId, conversationId));
    const list: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(list)
      ? list.filter(isPending).map((m) => ({ ...m, state: m.state === 'failed' || m.state === 'waiting' ? m.state : 'sending' }))
      : [];
  } catch {
    return [];
  }
}

export function savePending(userId: number, conversationId: number, list: readonly PendingMessage[]): void {
  try {
    const key = keyOf(userId, conversationId);
    if (list.length === 0) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(list));
  } catch {
    // Storage full or refused (private mode): the messages still show and send while the page is open.
  }
  held.set(`${userId}:${conversationId}`, list);
  snapshots.delete(userId);
  for (const l of listeners) l();
}

// What this page holds in memory, so a list that storage refused is still counted while the page is open.
const held = new Map<string, readonly PendingMessage[]>();
const listeners = new Set<() => void>();
const snapshots = new Map<number, readonly PendingMessage[]>();
const NONE: readonly PendingMessage[] = [];

/** Every unsent message of one user, all conversations, oldest first (this page's copy first, else storage). */
export function allPending(userId: number): readonly PendingMessage[] {
  const own = `${PREFIX}${userId}:`;
  const byConversation = new Map<number, readonly PendingMessage[]>();
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key?.startsWith(own)) continue;
      const conversationId = Number(key.slice(own.length));
      if (Number.isInteger(conversationId)) byConversation.set(conversationId, loadPending(userId, conversationId));
    }
  } catch {
    // Storage refused: only this page's copy counts.
  }
  for (const [key, list] of held) {
    const [uid, cid] = key.split(':').map(Number);
    if (uid === userId) byConversation.set(cid as number, list);
  }
  const all = [...byConversation.values()].flat();
  return all.length === 0 ? NONE : all.sort((a, b) => a.writtenAt.localeCompare(b.writtenAt));
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  // Another tab wrote or sent some.
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key.startsWith(PREFIX)) {
      held.clear();
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

/**
 * The viewer's messages not yet acknowledged by the server, in every conversation, oldest first, kept
 * current as they are written, sent or discarded (in this tab or another). For screens outside the chat
 * that say what waits on this device (the offline banner). Each item's `state` says whether it waits for
 * the connection ('waiting' or 'sending') or was refused ('failed', with `error`); `text` is what the
 * person wrote and `attachments` the files going with it. Empty for no user.
 */
export function usePendingMessages(userId: number | null): readonly PendingMessage[] {
  return useSyncExternalStore(
    subscribe,
    () => {
      if (userId === null) return NONE;
      let list = snapshots.get(userId);
      if (!list) {
        list = allPending(userId);
        snapshots.set(userId, list);
      }
      return list;
    },
    () => NONE,
  );
}
