import { clientProcedure, router } from '../trpc/init.js';
import { addedRating, addRatingInput, checkIsRatedInput, ratedStatus } from './schema.js';
import * as service from './service.js';

export const ratingRouter = router({
  add: clientProcedure
    .input(addRatingInput)
    .output(addedRating)
    .mutation(({ ctx, input }) => service.addRating(ctx.deps.db, ctx.user, input)),
  checkIsRated: clientProcedure
    .input(checkIsRatedInput)
    .output(ratedStatus)
    .query(({ ctx, input }) => service.checkIsRated(ctx.deps.db, ctx.user, input.userId)),
});
