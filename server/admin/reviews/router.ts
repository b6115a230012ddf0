import { adminProcedure, router } from '../../trpc/init.js';
import { messageResult } from '../common.js';
import { listReviewsInput, reviewPage, setReviewPublishedInput } from './schema.js';
import * as service from '../../rating/service.js';

export const reviewsRouter = router({
  list: adminProcedure
    .input(listReviewsInput)
    .output(reviewPage)
    .query(({ ctx, input }) => service.listReviews(ctx.deps.db, input)),
  setPublished: adminProcedure
    .input(setReviewPublishedInput)
    .output(messageResult)
    .mutation(({ ctx, input }) => service.setReviewPublished(ctx.deps.db, ctx.user, input)),
});
