import { z } from 'zod';
import { idField } from '../../validation.js';
import { pageInput, pageOf } from '../common.js';

/** Client reviews in the console (the testimonials they feed are in server/rating/schema.ts). zod only. */

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
