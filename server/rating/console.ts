import { adminProcedure, router } from '../trpc/init.js';
import { messageResult } from '../validation.js';
import { listReviewsInput, reviewPage, setReviewPublishedInput } from './schema.js';
import * as service from './service.js';

/** The console's reviews: the list, and which ones are published as testimonials. */
export const reviewsConsoleRouter = router({
  list: adminProcedure
    .input(listReviewsInput)
    .output(reviewPage)
    .query(({ ctx, input }) => service.listReviews(ctx.deps.db, input)),
  setPublished: adminProcedure
    .input(setReviewPublishedInput)
    .output(messageResult)
    .mutation(({ ctx, input }) => service.setReviewPublished(ctx.deps.db, ctx.user, input)),
});
