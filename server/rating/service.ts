import { actingFor } from '../auth/guards.js';
import { ROLE } from '../auth/roles.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { recordAudit } from '../audit/record.js';
import { mapPage } from '../db/paging.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import * as repo from './repo.js';
import {
  ALREADY_RATED,
  type AddRatingInput,
  fromHalfStars,
  MAX_TESTIMONIALS,
  MIN_PUBLISHED_TESTIMONIALS,
  RATING_ADDED,
  type Testimonial,
  toHalfStars,
} from './schema.js';

/**
 * A rating is a client's own word about the service, so nobody rates for
 * someone else: not another client, and not a dietitian on a client's behalf
 * (that would be a made-up review). Dietitians do not rate their own service.
 */
export async function addRating(db: Db, actor: SessionUser, input: AddRatingInput) {
  if (actor.role !== ROLE.client) throw forbidden('Ratings come from clients; dietitians cannot add one.');
  if (input.reviewBy !== undefined && input.reviewBy !== actor.id) throw forbidden('You can only rate the service for yourself.');
  const saved = await repo.insertRatingOnce(db, {
    userId: actor.id,
    halfStars: toHalfStars(input.reviewStar),
    comment: input.reviewComment,
  });
  if (!saved) throw conflict(ALREADY_RATED);
  return {
    message: RATING_ADDED,
    data: { id: saved.id, reviewStar: fromHalfStars(saved.half_stars), reviewComment: saved.comment, reviewBy: saved.user_id },
  };
}

/** Clients ask about themselves; a dietitian may ask about anyone. */
export async function checkIsRated(db: Db, actor: SessionUser, userId: number | undefined) {
  return { rated: await repo.hasRated(db, actingFor(actor, userId)) };
}

/** The console's review list: every rating with its author, or only the published or unpublished ones. */
export async function listReviews(db: Db, input: { filter: 'all' | 'published' | 'unpublished'; page: number; pageSize: number }) {
  const published = input.filter === 'all' ? undefined : input.filter === 'published';
  return mapPage(await repo.pageRatingsWithAuthors(db, { ...input, published }), (r) => ({
    id: r.id,
    stars: fromHalfStars(r.half_stars),
    comment: r.comment,
    isPublished: r.is_published,
    createdAt: r.created_at,
    client: { id: r.user_id, fullName: `${r.first_name} ${r.last_name}`.trim(), firstName: r.first_name, isActive: r.is_active },
  }));
}

/** Puts a review on the home page or takes it off; only a review with words can go on. */
export async function setReviewPublished(db: Db, actor: SessionUser, input: { id: number; published: boolean }) {
  return db.transaction().execute(async (trx) => {
    const review = await repo.lockRatingWithAuthor(trx, input.id);
    if (!review) throw notFound('That review does not exist.');
    if (review.is_published === input.published) {
      return { message: input.published ? 'The review is already published.' : 'The review is already unpublished.' };
    }
    if (input.published && review.comment.trim() === '') {
      throw badRequest('Only reviews with a comment can be published: a testimonial needs words.');
    }
    await repo.setRatingPublished(trx, input.id, input.published);
    const who = `${review.first_name} ${review.last_name}`.trim();
    await recordAudit(trx, actor, {
      action: input.published ? 'review.published' : 'review.unpublished',
      entity: 'review',
      entityId: input.id,
      summary: `${input.published ? 'Published' : 'Unpublished'} the review by ${who}`,
    });
    return {
      message: input.published ? `The review by ${review.first_name} is now on the home page.` : 'The review was taken off the home page.',
    };
  });
}

const monthLabel = new Intl.DateTimeFormat('en-IN', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * The newest published reviews for the home page, first name and month only.
 * Empty until at least MIN_PUBLISHED_TESTIMONIALS are published, so the home
 * page keeps its static testimonials rather than showing one or two.
 */
export async function publishedTestimonials(db: Db): Promise<{ items: Testimonial[] }> {
  const rows = await repo.newestPublishedRatings(db, MAX_TESTIMONIALS);
  if (rows.length < MIN_PUBLISHED_TESTIMONIALS) return { items: [] };
  return {
    items: rows.map((r) => ({
      id: r.id,
      clientName: r.first_name,
      clientReview: r.comment,
      stars: fromHalfStars(r.half_stars),
      postedOn: monthLabel.format(r.created_at),
      postedMonth: r.created_at.toISOString().slice(0, 7),
    })),
  };
}
