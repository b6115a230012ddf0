import { clientProcedure, publicProcedure, router } from '../trpc/init.js';
import { addedRating, addRatingInput, checkIsRatedInput, publishedTestimonials, ratedStatus } from './schema.js';
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

/**
 * Public, no sign-in: the reviews the dietitian chose to publish, for the home
 * page's testimonials section (empty until at least three are published).
 * Registered as `testimonials` in server/trpc/root.ts.
 */
export const testimonialsRouter = router({
  published: publicProcedure.output(publishedTestimonials).query(({ ctx }) => service.publishedTestimonials(ctx.deps.db)),
});
