import type { Db, DbHandle } from '../db/index.js';
import { createNotifySource, type NotifySource } from '../realtime/notify-source.js';
import * as repo from './repo.js';
import { KeptOfficeHours } from './settings.js';
import { SendBatcher } from './send-batch.js';
import { type MessageSignal, type NotifiedMessageRow, SENDER_ROLES } from './schema.js';

/**
 * Live delivery of conversations (the channel is realtime/live-channel.ts).
 * Every committed change to a conversation (a message, a read receipt)
 * notifies this channel from inside its transaction, so the hint goes out
 * only if the change commits; typing is published as it happens and never
 * stored. Payloads hold ids and numbers, and a new message's stored row when
 * it has no files (storedRowOf); each instance makes what a viewer may see.
 */
export const MESSAGES_CHANNEL = 'messages';

/** A typing notice goes out at most once per sender and conversation in this time; clients clear it after TYPING_SHOWN_MS. */
export const TYPING_EVERY_MS = 3000;
export const TYPING_SHOWN_MS = 6000;
/** A reconnecting subscriber is replayed at most this many messages; beyond that it reloads. */
export const CATCH_UP_MAX_MESSAGES = 500;

export type MessageNote = MessageSignal | { kind: 'typing'; conversationId: number; userId: number };

export async function publishMessageSignal(trx: Db, signal: MessageSignal): Promise<void> {
  await repo.notifyMessages(trx, MESSAGES_CHANNEL, JSON.stringify(signal));
}

const isId = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) > 0;

const isText = (s: unknown) => typeof s === 'string';
const isTextOrNull = (s: unknown) => s === null || typeof s === 'string';

function isNotifiedRow(value: unknown, conversationId: unknown, seq: unknown): value is NotifiedMessageRow {
  const r = value as Partial<Record<string, unknown>> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    isId(r.id) &&
    r.conversation_id === conversationId &&
    r.seq === seq &&
    (r.sender_id === null || isId(r.sender_id)) &&
    SENDER_ROLES.includes(r.sender_role as NotifiedMessageRow['sender_role']) &&
    isTextOrNull(r.client_message_id) &&
    isText(r.text) &&
    isText(r.sent_at) &&
    !Number.isNaN(Date.parse(r.sent_at as string)) &&
    isTextOrNull(r.sender_first) &&
    isTextOrNull(r.sender_last)
  );
}

function isNote(value: unknown): value is MessageNote {
  const v = value as Partial<Record<string, unknown>> | null;
  if (typeof v !== 'object' || v === null || !isId(v.conversationId)) return false;
  if (v.kind === 'message') return isId(v.seq) && (v.row === undefined || isNotifiedRow(v.row, v.conversationId, v.seq));
  if (v.kind === 'read') return isId(v.userId) && Number.isSafeInteger(v.seq);
  if (v.kind === 'typing') return isId(v.userId);
  return false;
}

/** A payload from the channel, or null when it is not one of ours. */
export function parseMessageSignal(payload: string): MessageNote | null {
  try {
    const v: unknown = JSON.parse(payload);
    return isNote(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * The stored row a message's NOTIFY carried (no files: those are read with their links for each viewer), or
 * undefined when it carried ids only (a message with files, an automatic reply, a row too long for a NOTIFY):
 * the caller reads it from the database then. A speed trick only: both give the same message.
 */
export function storedRowOf(note: Extract<MessageNote, { kind: 'message' }>): repo.MessageRow | undefined {
  const r = note.row;
  return r && { ...r, sent_at: new Date(r.sent_at), attachment_ids: [] };
}

/** The `messages` NOTIFY channel as a live source, the typing throttle of this instance, its office hours and its sends. */
export type MessagesBus = NotifySource<MessageNote> & {
  /** Whether a typing notice from this sender in this conversation may go out now (at most one per TYPING_EVERY_MS). */
  typingAllowed(userId: number, conversationId: number, nowMs: number): boolean;
  /** The office hours as this instance last read them (a send checks their version). */
  officeHours: KeptOfficeHours;
  /** Sends that arrive together go to the database in one call (send-batch.ts). */
  sends: SendBatcher;
};

export function createMessagesBus(handle: DbHandle, onError: (err: Error) => void = () => {}): MessagesBus {
  const source = createNotifySource(handle, { channel: MESSAGES_CHANNEL, name: 'messages', isNote, onError });
  const lastTyping = new Map<string, number>();
  return {
    ...source,
    officeHours: new KeptOfficeHours(),
    sends: new SendBatcher(handle.db),
    typingAllowed(userId, conversationId, nowMs) {
      const key = `${userId}:${conversationId}`;
      const last = lastTyping.get(key);
      if (last !== undefined && nowMs - last < TYPING_EVERY_MS) return false;
      // Forget old entries now and then, so the map holds only senders typing lately.
      if (lastTyping.size > 10_000) for (const [k, at] of lastTyping) if (nowMs - at >= TYPING_EVERY_MS) lastTyping.delete(k);
      lastTyping.set(key, nowMs);
      return true;
    },
  };
}
