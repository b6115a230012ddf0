import { clientProcedure, router } from '../trpc/init.js';
import { nutritionDays } from './days.js';
import { nutritionDays as nutritionDaysOutput, nutritionDaysInput } from './days-schema.js';

/** What a client's days add up to (the journal's foods against the targets): a client their own, a dietitian any client's. */
export const nutritionDaysRouter = router({
  list: clientProcedure
    .input(nutritionDaysInput)
    .output(nutritionDaysOutput)
    .query(({ ctx, input }) => nutritionDays(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
});
