import { z } from 'zod';
import { clientProcedure, router } from '../trpc/init.js';
import { addWeightInput, createdWeightEntry, deleteWeightInput, listWeightsInput, weightEntry } from './schema.js';
import * as service from './service.js';

export const weightRouter = router({
  add: clientProcedure
    .input(addWeightInput)
    .output(createdWeightEntry)
    .mutation(({ ctx, input }) => service.addWeight(ctx.deps.db, ctx.user, input)),
  list: clientProcedure
    .input(listWeightsInput)
    .output(z.array(weightEntry))
    .query(({ ctx, input }) => service.listWeights(ctx.deps.db, ctx.user, input.id)),
  remove: clientProcedure
    .input(deleteWeightInput)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => service.removeWeight(ctx.deps.db, ctx.user, input.id)),
});
