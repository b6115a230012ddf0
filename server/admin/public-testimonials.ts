import { publicProcedure, router } from '../trpc/init.js';
import { publishedTestimonials } from './reviews/schema.js';
import * as service from './reviews/service.js';

/**
 * Public, no sign-in: the reviews the dietitian chose to publish, for the home
 * page's testimonials section (empty until at least three are published).
 * Registered as `testimonials` in server/trpc/root.ts.
 */
export const testimonialsRouter = router({
  published: publicProcedure.output(publishedTestimonials).query(({ ctx }) => service.publishedTestimonials(ctx.deps.db)),
});
