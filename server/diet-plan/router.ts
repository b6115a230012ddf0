import { byId } from '../validation.js';
import { clientProcedure, router } from '../trpc/init.js';
import { readDietPlan } from './read.js';
import { dietPlanList, dietPlanView, listDietPlansInput } from './schema.js';
import * as service from './service.js';

export const dietPlanRouter = router({
  /** A client's plans, newest first, paged (zero-based); `count` in the answer is the total. */
  list: clientProcedure
    .input(listDietPlansInput)
    .output(dietPlanList)
    .query(({ ctx, input }) => service.listDietPlans(ctx.deps, ctx.user, input)),
  /** One plan with each linked food's grams and nutrients and each meal's and day's totals (a client reads only their own). */
  get: clientProcedure
    .input(byId)
    .output(dietPlanView)
    .query(({ ctx, input }) => readDietPlan(ctx.deps, ctx.user, input)),
});
