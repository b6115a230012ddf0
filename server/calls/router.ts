import { z } from 'zod';
import { type Context, liveSubscriber } from '../trpc/context.js';
import { authedProcedure, publicProcedure, router } from '../trpc/init.js';
import {
  appointmentInput,
  callInfo,
  guestInput,
  guestJoinInput,
  guestSignalInput,
  iceConfig,
  joinInput,
  sendSignalInput,
} from './schema.js';
import * as service from './service.js';
import { callStream } from './streams.js';

/**
 * A call between an appointment's client and a dietitian (decision 120),
 * for the two of them only: anyone else is told there is no such call.
 * Signals pass through here and NOTIFY, never stored. The dietitian's notes
 * and fallback link are admin.calls.
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
    const seat = await service.takeSeat(ctx.deps, ctx.user, input.appointmentId, input.peerId, ctx.deps.clock());
    yield* holdSeat(ctx, seat, false, signal);
  }),
  /** An offer, answer, ICE candidate or media state to the other side's page (delivered: false when nobody is there). */
  signal: authedProcedure
    .input(sendSignalInput)
    .output(z.object({ delivered: z.boolean() }))
    .mutation(({ ctx, input }) => service.sendSignal(ctx.deps, ctx.user, input, ctx.deps.clock())),
  /**
   * The same call for a visitor without an account, through her guest link
   * (guest-link.ts): every call carries the link's parts, checked each time,
   * and opens only that one call, as its client's side. Over the WebSocket,
   * only a socket opened with a well-signed guest link may call these without
   * a session (realtime/ws.ts).
   */
  guest: router({
    get: publicProcedure
      .input(guestInput)
      .output(callInfo)
      .query(({ ctx, input }) => service.getGuestCall(ctx.deps, input.pass, ctx.deps.clock())),
    iceConfig: publicProcedure
      .input(guestInput)
      .output(iceConfig)
      .query(({ ctx, input }) => service.guestIceConfig(ctx.deps, input.pass, ctx.deps.clock())),
    join: publicProcedure.input(guestJoinInput).subscription(async function* ({ ctx, input, signal }) {
      const seat = await service.takeGuestSeat(ctx.deps, input.pass, input.peerId, ctx.deps.clock());
      yield* holdSeat(ctx, seat, true, signal);
    }),
    signal: publicProcedure
      .input(guestSignalInput)
      .output(z.object({ delivered: z.boolean() }))
      .mutation(({ ctx, input }) =>
        service.sendGuestSignal(ctx.deps, input.pass, { peerId: input.peerId, signal: input.signal }, ctx.deps.clock()),
      ),
  }),
});

/** Streams a held place's signals until the page leaves, refreshing the place meanwhile; then lets it go (the other side is told). */
async function* holdSeat(ctx: Context, seat: service.HeldSeat, guest: boolean, signal: AbortSignal | undefined) {
  const { deps } = ctx;
  const beat = setInterval(() => {
    service.keepSeat(deps, seat, deps.clock()).catch((err: Error) => deps.logger.warn('call seat refresh failed', { error: err.message }));
  }, service.SEAT_BEAT_MS);
  try {
    yield* deps.callsLive.open(callStream, { viewer: { ...seat, guest }, ...liveSubscriber(ctx, signal) });
  } finally {
    clearInterval(beat);
    await service.leaveSeat(deps, seat).catch((err: Error) => deps.logger.warn('call seat release failed', { error: err.message }));
  }
}
