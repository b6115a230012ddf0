import { z } from 'zod';
import * as settings from './settings.js';
import { conversationOfClient, inbox, panel } from './inbox.js';
import {
  conversationIdInput,
  conversationPanel,
  inboxInput,
  inboxRow,
  officeHours,
  openClientInput,
  savedReply,
  savedReplyInput,
  setPrimaryInput,
  updateSavedReplyInput,
} from './schema.js';
import { inboxStream } from './streams.js';
import { liveSubscriber } from '../trpc/context.js';
import { adminProcedure, router } from '../trpc/init.js';
import { byId } from '../validation.js';

/** The console's messages: the inbox, the side panel, primary dietitians, saved replies, office hours. */
export const messagesConsoleRouter = router({
  inbox: adminProcedure
    .input(inboxInput)
    .output(
      z.object({
        items: z.array(inboxRow),
        total: z.number().int(),
        page: z.number().int(),
        pageSize: z.number().int(),
        totalUnread: z.number().int(),
      }),
    )
    .query(({ ctx, input }) => inbox(ctx.deps.db, ctx.user, input)),
  /** A signal per change to any conversation (a message, a receipt): the inbox and the unread badge reload. Not resumable. */
  inboxEvents: adminProcedure.input(z.void()).subscription(async function* ({ ctx, signal }) {
    yield* ctx.deps.messagesLive.open(inboxStream, { viewer: ctx.user.id, ...liveSubscriber(ctx, signal) });
  }),
  panel: adminProcedure
    .input(conversationIdInput)
    .output(conversationPanel)
    .query(({ ctx, input }) => panel(ctx.deps, ctx.user, input.conversationId, ctx.deps.clock())),
  /** The conversation of a client (made if needed), to open it from the client's page. */
  forClient: adminProcedure
    .input(openClientInput)
    .output(z.object({ conversationId: z.number().int() }))
    .mutation(({ ctx, input }) => conversationOfClient(ctx.deps.db, input.clientId)),
  setPrimary: adminProcedure
    .input(setPrimaryInput)
    .output(z.void())
    .mutation(({ ctx, input }) => settings.setPrimaryDietitian(ctx.deps.db, ctx.user, input)),
  savedReplies: adminProcedure.output(z.array(savedReply)).query(({ ctx }) => settings.listSavedReplies(ctx.deps.db)),
  createSavedReply: adminProcedure
    .input(savedReplyInput)
    .output(savedReply)
    .mutation(({ ctx, input }) => settings.createSavedReply(ctx.deps.db, ctx.user, input)),
  updateSavedReply: adminProcedure
    .input(updateSavedReplyInput)
    .output(savedReply)
    .mutation(({ ctx, input }) => settings.updateSavedReply(ctx.deps.db, input, ctx.deps.clock())),
  deleteSavedReply: adminProcedure
    .input(byId)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => settings.deleteSavedReply(ctx.deps.db, input)),
  /** Office hours in India time; null when never set (always open). */
  officeHours: adminProcedure.output(officeHours.nullable()).query(({ ctx }) => settings.officeHoursOf(ctx.deps.db)),
  setOfficeHours: adminProcedure
    .input(officeHours)
    .output(officeHours)
    .mutation(({ ctx, input }) => settings.setOfficeHours(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
});
