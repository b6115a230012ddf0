import { z } from 'zod';
import { attachmentView } from '../attachments/schema.js';
import { liveSubscriber } from '../trpc/context.js';
import { clientProcedure, router } from '../trpc/init.js';
import { conversationStream } from './streams.js';
import { exportConversation } from './export.js';
import {
  conversationEventsInput,
  conversationFilesInput,
  conversationIdInput,
  conversationList,
  listConversationsInput,
  listMessagesInput,
  markReadInput,
  messagePage,
  readState,
  sendMessageInput,
  sentMessage,
  unreadCount,
} from './schema.js';
import * as service from './service.js';

/**
 * Messages between a client and the care team, for clients and
 * dietitians alike: a client reaches only their own conversation. The
 * console's inbox, side panel and settings are admin.messages. Live delivery
 * rides the realtime channel, fed by the `messages` NOTIFY (events.ts).
 */
export const messagesRouter = router({
  conversations: clientProcedure
    .input(listConversationsInput)
    .output(conversationList)
    .query(({ ctx, input }) => service.listConversations(ctx.deps.db, ctx.user, input)),
  list: clientProcedure
    .input(listMessagesInput)
    .output(messagePage)
    .query(({ ctx, input }) => service.listMessages(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
  send: clientProcedure
    .input(sendMessageInput)
    .output(sentMessage)
    .mutation(({ ctx, input }) => service.sendMessage(ctx.deps, ctx.user, input, ctx.deps.clock())),
  read: clientProcedure
    .input(markReadInput)
    .output(readState)
    .mutation(({ ctx, input }) => service.markRead(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
  /** "Typing…" to the other side: never stored, at most one every 3 s per sender ({ sent: false } inside that time). */
  typing: clientProcedure
    .input(conversationIdInput)
    .output(z.object({ sent: z.boolean() }))
    .mutation(({ ctx, input }) => service.announceTyping(ctx.deps, ctx.user, input.conversationId, ctx.deps.clock().getTime())),
  /**
   * One conversation live (events.ts ConversationEvent): new messages, the
   * other side's receipts and typing; tracked by seq, so a reconnect replays
   * what was missed, in order. 'ready' once caught up.
   */
  events: clientProcedure.input(conversationEventsInput).subscription(async function* ({ ctx, input, signal }) {
    const viewer = await service.conversationViewer(ctx.deps.db, ctx.user, input.conversationId);
    yield* ctx.deps.messagesLive.open(conversationStream(ctx.deps.db), {
      viewer,
      cursor: input.lastEventId,
      ...liveSubscriber(ctx, signal),
    });
  }),
  /**
   * Fresh signed links for files shown in an open conversation: the links in messages expire after 15 minutes,
   * and a chat left open longer asks for new ones (only files of this conversation's messages are answered).
   */
  files: clientProcedure
    .input(conversationFilesInput)
    .output(z.array(attachmentView))
    .query(({ ctx, input }) => service.conversationFiles(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
  /** The navigation badge. */
  unread: clientProcedure
    .input(z.void())
    .output(unreadCount)
    .query(({ ctx }) => service.unreadCount(ctx.deps.db, ctx.user)),
  /** "Download conversation": the whole conversation as a text file. */
  export: clientProcedure
    .input(conversationIdInput)
    .output(z.object({ filename: z.string(), contentType: z.string(), text: z.string() }))
    .query(({ ctx, input }) => exportConversation(ctx.deps.db, ctx.user, input.conversationId, ctx.deps.clock())),
});
