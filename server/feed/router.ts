import { liveSubscriber } from '../trpc/context.js';
import { adminProcedure, clientProcedure, router } from '../trpc/init.js';
import { feedPageOutput } from './checked-items.js';
import { feedEventStream } from './events.js';
import {
  createPostInput,
  feedEventsInput,
  feedItem,
  likersInput,
  likersPage,
  listFeedInput,
  removedPost,
  removePostInput,
  toggleLikeInput,
  toggleLikeResult,
  updatePostInput,
} from './schema.js';
import * as service from './service.js';

export const feedRouter = router({
  list: clientProcedure
    .input(listFeedInput)
    // feedPage, checked once per kept row (checked-items.ts)
    .output(feedPageOutput)
    .query(({ ctx, input }) => service.listFeed(ctx.deps, ctx.user, input)),
  toggleLike: clientProcedure
    .input(toggleLikeInput)
    .output(toggleLikeResult)
    .mutation(({ ctx, input }) => service.toggleLike(ctx.deps, ctx.user, input)),
  likers: clientProcedure
    .input(likersInput)
    .output(likersPage)
    .query(({ ctx, input }) => service.listLikers(ctx.deps.db, ctx.user, input)),
  create: adminProcedure
    .input(createPostInput)
    .output(feedItem)
    .mutation(({ ctx, input }) => service.createPost(ctx.deps, ctx.user, input)),
  update: adminProcedure
    .input(updatePostInput)
    .output(feedItem)
    .mutation(({ ctx, input }) => service.updatePost(ctx.deps, ctx.user, input)),
  remove: adminProcedure
    .input(removePostInput)
    .output(removedPost)
    .mutation(({ ctx, input }) => service.removePost(ctx.deps, ctx.user, input.id)),
  /**
   * Live feed over WebSocket: tracked events (see FeedEvent in schema.ts).
   * Subscribe, then (re)fetch feed.list on the first 'ready' and on every
   * 'resync'; tRPC resends the last event id on reconnect and the missed
   * events are replayed.
   */
  events: clientProcedure.input(feedEventsInput).subscription(async function* ({ ctx, input, signal }) {
    const closed = ctx.deps.metrics.subscriptionOpened(ctx.user.id, ctx.user.role);
    try {
      yield* feedEventStream(ctx.deps, { viewer: ctx.user.id, cursor: input?.lastEventId, ...liveSubscriber(ctx, signal) });
    } finally {
      closed();
    }
  }),
});
