import { z } from 'zod';
import { liveSubscriber } from '../trpc/context.js';
import { followUpStream } from './bus.js';
import { clientProcedure, router } from '../trpc/init.js';
import { todayUtc } from '../validation.js';
import { checkInOverview, createCheckInInput, listCheckInsInput, sentCheckIn, type CheckInEvent } from './schema.js';
import * as service from './service.js';

/** A client's own check-in events: a dietitian's reply, a pause or resume, a contact that moves her next check-in (not her own check-ins). */
const checkInStream = followUpStream<number, CheckInEvent>('check-ins', (clientId, e) =>
  e.kind === 'activity' || e.kind === 'care-record' || e.clientId !== clientId || e.kind === 'check-in.created'
    ? null
    : e.kind === 'check-in.replied'
      ? { kind: 'check-in.replied', checkInId: e.checkInId ?? 0 }
      : { kind: 'changed' },
);

export const checkInRouter = router({
  create: clientProcedure
    .input(createCheckInInput)
    .output(sentCheckIn)
    .mutation(({ ctx, input }) => service.createCheckIn(ctx.deps, ctx.user, input, ctx.deps.clock())),
  list: clientProcedure
    .input(listCheckInsInput)
    .output(checkInOverview)
    .query(({ ctx, input }) => service.checkInOverview(ctx.deps.db, ctx.user, input.clientId, todayUtc(ctx.deps.clock()))),
  /**
   * The signed-in client's own check-in events (a dietitian's reply, a pause
   * or resume): 'ready' first, then one event per change; reload on each.
   */
  events: clientProcedure.input(z.void()).subscription(async function* ({ ctx, signal }) {
    yield* ctx.deps.followUpLive.open(checkInStream, { viewer: ctx.user.id, ...liveSubscriber(ctx, signal) });
  }),
});
