import { liveSubscriber } from '../trpc/context.js';
import { clientProcedure, router } from '../trpc/init.js';
import { feedPageOutput } from './checked-items.js';
import { feedEventStream } from './events.js';
import { feedEventsInput, likersInput, likersPage, listFeedInput, toggleLikeInput, toggleLikeResult } from './schema.js';
import * as service from './service.js';

/** The feed as clients read it: pages, likes, who liked, and the live events. Posts are written from the console (console.ts). */
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
