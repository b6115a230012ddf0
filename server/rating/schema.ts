import { z } from 'zod';
import { idField, numberField, pageInput, pageOf, plainText } from '../validation.js';

/** Half-star steps up to 5. Stored as whole half stars (1..10) so the steps stay exact. */
export const RATING_MAX_STARS = 5;
export const RATING_COMMENT_MAX = 1000;

/** The hover labels of the half stars, for 0.5, 1, 1.5 … 5 stars. */
export const RATING_LABELS = ['Useless', 'Useless+', 'Poor', 'Poor+', 'Ok', 'Ok+', 'Good', 'Good+', 'Excellent', 'Excellent+'] as const;
export type RatingLabel = (typeof RATING_LABELS)[number];

export const isHalfStarStep = (stars: number) => Number.isInteger(stars * 2) && stars >= 0.5 && stars <= RATING_MAX_STARS;

/** The label shown for a star value; undefined for 0 (nothing chosen) or a value off the half-star grid. */
export function ratingLabel(stars: number): RatingLabel | undefined {
  return isHalfStarStep(stars) ? RATING_LABELS[stars * 2 - 1] : undefined;
}

export const toHalfStars = (stars: number) => Math.round(stars * 2);
export const fromHalfStars = (halfStars: number) => halfStars / 2;

const RATINGS_REQUIRED = 'Ratings are required';

/** 0 is what an untouched star widget holds, so it reads as "not rated yet". */
export const reviewStarField = numberField(RATINGS_REQUIRED, 'Ratings must be a number').pipe(
  z
    .number()
    .refine((stars) => stars !== 0, { error: RATINGS_REQUIRED, abort: true })
    .refine(isHalfStarStep, 'Ratings go from 0.5 to 5 stars in half-star steps'),
);

export const reviewCommentField = z
  .string({ error: 'Your review must be text' })
  .trim()
  .max(RATING_COMMENT_MAX, `Your review must be at most ${RATING_COMMENT_MAX} characters`)
  .pipe(plainText('Your review', { multiline: true }))
  .nullish()
  .transform((comment) => comment ?? '');

/** The Write a Review form (the client fills reviewBy from the signed-in user). */
export const ratingForm = z.object({ reviewStar: reviewStarField, reviewComment: reviewCommentField });

export const addRatingInput = ratingForm.extend({ reviewBy: idField('reviewBy').optional() });
export const checkIsRatedInput = z.object({ userId: idField('userId').optional() });

export const rating = z.object({
  id: z.number().int(),
  reviewStar: z.number(),
  reviewComment: z.string(),
  reviewBy: z.number().int(),
});
export const addedRating = z.object({ message: z.string(), data: rating });
export const ratedStatus = z.object({ rated: z.boolean() });

export const RATING_ADDED = 'Rated successfully. Thank you for your feedback!';
export const ALREADY_RATED = 'You have already rated us. Thank you!';

export type RatingFormInput = z.input<typeof ratingForm>;
export type RatingFormValues = z.output<typeof ratingForm>;
export type AddRatingInput = z.infer<typeof addRatingInput>;
export type Rating = z.infer<typeof rating>;

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

/* Client reviews in the console. */

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
