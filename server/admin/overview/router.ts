import { adminProcedure, router } from '../../trpc/init.js';
import { getOperationalHealth, retryFailedMail } from './health.js';
import { operationalHealth, overview, retriedMail, retryMailInput } from './schema.js';
import { getOverview } from './service.js';

export const overviewRouter = router({
  get: adminProcedure.output(overview).query(({ ctx }) => getOverview(ctx.deps.db, ctx.deps.clock())),
  health: adminProcedure.output(operationalHealth).query(({ ctx }) => getOperationalHealth(ctx.deps)),
  retryMail: adminProcedure
    .input(retryMailInput)
    .output(retriedMail)
    .mutation(({ ctx, input }) => retryFailedMail(ctx.deps, ctx.user, input)),
});
