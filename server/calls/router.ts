import { z } from 'zod';
import { liveSubscriber } from '../trpc/context.js';
import { authedProcedure, router } from '../trpc/init.js';
import { appointmentInput, callInfo, iceConfig, joinInput, sendSignalInput } from './schema.js';
import * as service from './service.js';
import { callStream } from './streams.js';

/**
 * A call between an appointment's client and a dietitian (issue 26,
 * decision 120), for the two of them only: anyone else is told there is no
 * such call. Signals pass through here and NOTIFY, never stored. The
 * dietitian's notes and fallback link are admin.calls.
 */
export const callsRouter = router({
  /** The call page: when it opens, who is on the other side, the fallback link. */
  get: authedProcedure
    .input(appointmentInput)
    .output(callInfo)
    .query(({ ctx, input }) => service.getCall(ctx.deps.db, ctx.user, input.appointmentId, ctx.deps.clock())),
  /** STUN/TURN servers for this person and call, with TURN credentials that expire when the call closes. */
  iceConfig: authedProcedure
    .input(appointmentInput)
    .output(iceConfig)
    .query(({ ctx, input }) => service.iceConfig(ctx.deps, ctx.user, input.appointmentId, ctx.deps.clock())),
  /**
   * Joins the call: takes this side's one place for this page (CONFLICT when
   * someone else holds it) and streams the signals addressed to it until the
   * page leaves; the place is let go then, and the other side is told.
   */
  join: authedProcedure.input(joinInput).subscription(async function* ({ ctx, input, signal }) {
    const { deps } = ctx;
    const seat = await service.takeSeat(deps, ctx.user, input.appointmentId, input.peerId, deps.clock());
    const beat = setInterval(() => {
      service
        .keepSeat(deps, seat, deps.clock())
        .catch((err: Error) => deps.logger.warn('call seat refresh failed', { error: err.message }));
    }, service.SEAT_BEAT_MS);
    try {
      yield* deps.callsLive.open(callStream, { viewer: seat, ...liveSubscriber(ctx, signal) });
    } finally {
      clearInterval(beat);
      await service.leaveSeat(deps, seat).catch((err: Error) => deps.logger.warn('call seat release failed', { error: err.message }));
    }
  }),
  /** An offer, answer, ICE candidate or media state to the other side's page (delivered: false when nobody is there). */
  signal: authedProcedure
    .input(sendSignalInput)
    .output(z.object({ delivered: z.boolean() }))
    .mutation(({ ctx, input }) => service.sendSignal(ctx.deps, ctx.user, input, ctx.deps.clock())),
});
