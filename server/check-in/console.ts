import { z } from 'zod';
import { followUpStream } from './bus.js';
import { liveSubscriber } from '../trpc/context.js';
import { adminProcedure, router } from '../trpc/init.js';
import { messageResult, todayUtc } from '../validation.js';
import { followUpQueue, replyToCheckIn } from './follow-ups.js';
import { pauseSubscription, resumeSubscription } from './pause.js';
import { type FollowUpEvent, followUpQueue as followUpQueueOutput, pauseInput, replyInput, resumeInput } from './schema.js';

/** Every dietitian sees every event that can change the queue: check-ins, schedules, contact on any channel, intake. */
const followUpQueueStream = followUpStream<null, FollowUpEvent>('follow-up queue', (_, e) => {
  if (e.kind === 'activity') return null;
  if (e.kind === 'care-record') return e.part === 'intake' ? { kind: 'schedule.changed', clientId: e.clientId } : null;
  return { kind: e.kind, clientId: e.clientId };
});

/** The console's follow-up queue: who is due, replying to a check-in, pausing and resuming a plan, live. */
export const followUpsConsoleRouter = router({
  queue: adminProcedure.output(followUpQueueOutput).query(({ ctx }) => followUpQueue(ctx.deps.db, ctx.deps.clock())),
  reply: adminProcedure
    .input(replyInput)
    .output(messageResult.extend({ repliedAt: z.date() }))
    .mutation(({ ctx, input }) => replyToCheckIn(ctx.deps, ctx.user, input, ctx.deps.clock())),
  pause: adminProcedure
    .input(pauseInput)
    .output(messageResult)
    .mutation(({ ctx, input }) => pauseSubscription(ctx.deps, ctx.user, input, todayUtc(ctx.deps.clock()))),
  resume: adminProcedure
    .input(resumeInput)
    .output(messageResult.extend({ endDate: z.string() }))
    .mutation(({ ctx, input }) => resumeSubscription(ctx.deps, ctx.user, input, todayUtc(ctx.deps.clock()))),
  /** Live: every check-in, reply, pause, resume, contact on another channel and finished intake, from any instance ('ready' first; reload the queue on each). */
  events: adminProcedure.input(z.void()).subscription(async function* ({ ctx, signal }) {
    yield* ctx.deps.followUpLive.open(followUpQueueStream, { viewer: null, ...liveSubscriber(ctx, signal) });
  }),
});
