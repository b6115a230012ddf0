import { z } from 'zod';
import { idField } from '../../validation.js';
import { pageInput, pageOf } from '../common.js';

/** Client reviews in the console, and the public testimonials they feed. zod only. */

export const listReviewsInput = pageInput.extend({ filter: z.enum(['all', 'published', 'unpublished']).default('all') });
export const setReviewPublishedInput = z.object({
  id: idField('id'),
  published: z.boolean({ error: 'published must be true or false' }),
});

export const review = z.object({
  id: z.number().int(),
  stars: z.number(),
  comment: z.string(),
  isPublished: z.boolean(),
  createdAt: z.date(),
  client: z.object({ id: z.number().int(), fullName: z.string(), firstName: z.string(), isActive: z.boolean() }),
});
export const reviewPage = pageOf(review);

/** The home page replaces its static testimonials only when at least this many are published. */
export const MIN_PUBLISHED_TESTIMONIALS = 3;
export const MAX_TESTIMONIALS = 9;

export const testimonial = z.object({
  id: z.number().int(),
  /** First name only. */
  clientName: z.string(),
  clientReview: z.string(),
  stars: z.number(),
  /** The month the review was written, e.g. 'November 2026'. */
  postedOn: z.string(),
  /** The same month as 'YYYY-MM', for formatting in another locale. */
  postedMonth: z.string(),
});
export const publishedTestimonials = z.object({ items: z.array(testimonial) });
export type Testimonial = z.infer<typeof testimonial>;
