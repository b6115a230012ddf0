import { clientProcedure, router } from '../trpc/init.js';
import { dietPlanList, listDietPlansInput } from './schema.js';
import * as service from './service.js';

export const dietPlanRouter = router({
  /** A client's plans, newest first, paged (zero-based); `count` in the answer is the total. */
  list: clientProcedure
    .input(listDietPlansInput)
    .output(dietPlanList)
    .query(({ ctx, input }) => service.listDietPlans(ctx.deps, ctx.user, input)),
});
