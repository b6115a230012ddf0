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
}
