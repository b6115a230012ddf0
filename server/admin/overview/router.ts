import { z } from 'zod';
import { followUpStream } from '../../check-in/bus.js';
import { liveSubscriber } from '../../trpc/context.js';
import { adminProcedure, router } from '../../trpc/init.js';
import { getOperationalHealth, retryFailedMail } from './health.js';
import { type OverviewEvent, operationalHealth, overview, retriedMail, retryMailInput } from './schema.js';
import { getOverview } from './service.js';

/**
 * Every dietitian hears of what moves the Overview's counts: messages and
 * receipts, claims, meals, check-ins, contact, schedules, and a client's own
 * lab report (named, so the console can tell her).
 */
const overviewStream = followUpStream<null, OverviewEvent>('overview', (_, e) =>
  e.kind === 'care-record'
    ? e.labReport
      ? { kind: 'lab-report', clientId: e.clientId }
      : e.part === 'intake'
        ? { kind: 'changed' }
        : null
    : { kind: 'changed' },
);

export const overviewRouter = router({
  get: adminProcedure.output(overview).query(({ ctx }) => getOverview(ctx.deps.db, ctx.user, ctx.deps.clock())),
  /** Live: 'ready', then 'changed' (reload the counts) or 'lab-report' (a client added one) from any instance. */
  events: adminProcedure.input(z.void()).subscription(async function* ({ ctx, signal }) {
    yield* ctx.deps.followUpLive.open(overviewStream, { viewer: null, ...liveSubscriber(ctx, signal) });
  }),
  health: adminProcedure.output(operationalHealth).query(({ ctx }) => getOperationalHealth(ctx.deps)),
  retryMail: adminProcedure
    .input(retryMailInput)
    .output(retriedMail)
    .mutation(({ ctx, input }) => retryFailedMail(ctx.deps, ctx.user, input)),
});
