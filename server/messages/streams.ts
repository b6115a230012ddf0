import { ROLE } from '../auth/roles.js';
import type { Db } from '../db/index.js';
import type { LiveCatchUp, LiveShown, LiveStream, ResumableStream } from '../realtime/live-channel.js';
import { CATCH_UP_MAX_MESSAGES, type MessageNote, storedRowOf } from './events.js';
import * as repo from './repo.js';
import type { ConversationEvent, InboxEvent } from './schema.js';
import { type ConversationViewer, messagesWithFiles } from './service.js';

/**
 * The live streams of messages (decision 109's channel): a conversation's
 * (resumable by seq) and the console inbox's. Rules only: the channel does
 * the delivery; events.ts is where the notifications come from.
 */

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
    // A conversation's notifications reach only its own subscribers (no scan of every open conversation).
    topic: { of: (viewer) => String(viewer.conversationId), note: (n) => String(n.conversationId) },
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
          const row = storedRowOf(n) ?? (await repo.messageBySeq(db, n.conversationId, n.seq));
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
