import type { Db, DbHandle } from '../db/index.js';
import type { LiveCatchUp, LiveShown, LiveStream, ResumableStream } from '../realtime/live-channel.js';
import { createNotifySource, type NotifySource } from '../realtime/notify-source.js';
import * as repo from './repo.js';
import type { ConversationEvent, InboxEvent, MessageSignal } from './schema.js';
import { ROLE } from '../auth/roles.js';
import { messagesWithFiles } from './service.js';

/**
 * Live delivery of conversations (issue 23; the channel is
 * realtime/live-channel.ts). Every committed change to a conversation (a
 * message, a read receipt) notifies this channel from inside its
 * transaction, so the hint goes out only if the change commits; typing is
 * published as it happens and never stored. Payloads hold ids and numbers,
 * never text: a subscriber loads what it may see.
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

function isNote(value: unknown): value is MessageNote {
  const v = value as Partial<Record<string, unknown>> | null;
  if (typeof v !== 'object' || v === null || !isId(v.conversationId)) return false;
  if (v.kind === 'message') return isId(v.seq);
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

/** The `messages` NOTIFY channel as a live source, and the typing throttle of this instance. */
export type MessagesBus = NotifySource<MessageNote> & {
  /** Whether a typing notice from this sender in this conversation may go out now (at most one per TYPING_EVERY_MS). */
  typingAllowed(userId: number, conversationId: number, nowMs: number): boolean;
};

export function createMessagesBus(handle: DbHandle, onError: (err: Error) => void = () => {}): MessagesBus {
  const source = createNotifySource(handle, { channel: MESSAGES_CHANNEL, name: 'messages', isNote, onError });
  const lastTyping = new Map<string, number>();
  return {
    ...source,
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

/** Who watches a conversation: its id and client, and the viewer. */
export type ConversationViewer = { conversationId: number; clientId: number; userId: number; isClient: boolean };

/** Whether a receipt by `userId` is the other side's, for this viewer (the client's for the team, any dietitian's for the client). */
const otherSide = (viewer: ConversationViewer, userId: number) =>
  userId !== viewer.userId && (viewer.isClient ? userId !== viewer.clientId : userId === viewer.clientId);

/** Files of a conversation are its client's record: whoever may see the conversation sees them as the client does. */
const filesViewer = (viewer: ConversationViewer) => ({ id: viewer.clientId, role: ROLE.client });

async function catchUp(db: Db, viewer: ConversationViewer, cursor: string): Promise<LiveCatchUp<ConversationEvent>> {
  const conversation = await repo.findConversation(db, viewer.conversationId);
  const latest = conversation?.last_seq ?? 0;
  const since = /^\d{1,10}$/.test(cursor) ? Number(cursor) : Number.NaN;
  if (!Number.isSafeInteger(since) || since > latest) return { events: [], position: latest, resync: true };
  const rows = await repo.messagesAfter(db, viewer.conversationId, since, CATCH_UP_MAX_MESSAGES + 1);
  if (rows.length > CATCH_UP_MAX_MESSAGES) return { events: [], position: latest, resync: true };
  const events: LiveCatchUp<ConversationEvent>['events'] = (await messagesWithFiles(db, filesViewer(viewer), rows)).map((message) => ({
    id: message.seq,
    event: { kind: 'message', message },
  }));
  const position = rows.at(-1)?.seq ?? since;
  // Receipts are not replayed one by one: the other side's mark as it is now.
  const marks = await repo.readMarks(db, viewer.conversationId, viewer.clientId);
  events.push({ id: position, event: { kind: 'read', seq: viewer.isClient ? marks.teamSeq : marks.clientSeq } });
  return { events, position, resync: false };
}

export function conversationStream(db: Db): ResumableStream<ConversationViewer, MessageNote, ConversationEvent> {
  return {
    name: 'messages',
    ready: { kind: 'ready' },
    resume: {
      // Only this conversation's messages move the position; its receipts and typing are never skipped.
      position: (n, viewer) => (n.conversationId === viewer.conversationId && n.kind === 'message' ? n.seq : null),
      latest: async (viewer) => (await repo.findConversation(db, viewer.conversationId))?.last_seq ?? 0,
      catchUp: (viewer, cursor) => catchUp(db, viewer, cursor),
      resync: { kind: 'resync' },
    },
    view(viewer, n, views): LiveShown<ConversationEvent> | Promise<LiveShown<ConversationEvent>> {
      if (n.conversationId !== viewer.conversationId) return null;
      if (n.kind === 'read')
        return otherSide(viewer, n.userId) ? views.shared(`read:${n.seq}`, () => ({ kind: 'read', seq: n.seq })) : null;
      if (n.kind === 'typing') {
        if (n.userId === viewer.userId) return null;
        return views
          .memo('name', () => repo.firstNameOf(db, n.userId))
          .then((name) => (name === null ? null : views.shared('typing', () => ({ kind: 'typing', userId: n.userId, name }))));
      }
      return views
        .memo('message', async () => {
          const row = await repo.messageBySeq(db, n.conversationId, n.seq);
          return row ? (await messagesWithFiles(db, filesViewer(viewer), [row]))[0]! : null;
        })
        .then((message) => (message ? views.shared('message', () => ({ kind: 'message', message })) : null));
    },
    onViewError: () => ({ kind: 'resync' }),
  };
}

export const inboxStream: LiveStream<number, MessageNote, InboxEvent> = {
  name: 'messages-inbox',
  ready: { kind: 'ready' },
  view: (_viewer, n, views) =>
    n.kind === 'typing'
      ? null
      : views.shared('changed', () => ({
          kind: 'changed',
          conversationId: n.conversationId,
          lastSeq: n.kind === 'message' ? n.seq : null,
        })),
};
