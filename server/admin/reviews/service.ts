import type { SessionUser } from '../../auth/session.js';
import type { Db } from '../../db/index.js';
import { badRequest, notFound } from '../../errors.js';
import { fromHalfStars } from '../../rating/schema.js';
import { recordAudit } from '../../audit/record.js';
import { offsetOf, paged } from '../paging.js';
import { MAX_TESTIMONIALS, MIN_PUBLISHED_TESTIMONIALS, type Testimonial } from './schema.js';

type Filter = 'all' | 'published' | 'unpublished';

export function listReviews(db: Db, input: { filter: Filter; page: number; pageSize: number }) {
  const { offset, limit } = offsetOf(input);
  let rows = db
    .selectFrom('ratings as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select([
      'r.id',
      'r.half_stars',
      'r.comment',
      'r.is_published',
      'r.created_at',
      'u.id as user_id',
      'u.first_name',
      'u.last_name',
      'u.is_active',
    ]);
  let count = db.selectFrom('ratings').select((eb) => eb.fn.countAll().as('n'));
  if (input.filter !== 'all') {
    rows = rows.where('r.is_published', '=', input.filter === 'published');
    count = count.where('is_published', '=', input.filter === 'published');
  }
  return paged(
    input,
    rows
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute()
      .then((list) =>
        list.map((r) => ({
          id: r.id,
          stars: fromHalfStars(r.half_stars),
          comment: r.comment,
          isPublished: r.is_published,
          createdAt: r.created_at,
          client: { id: r.user_id, fullName: `${r.first_name} ${r.last_name}`.trim(), firstName: r.first_name, isActive: r.is_active },
        })),
      ),
    count.executeTakeFirst(),
  );
}

export async function setReviewPublished(db: Db, actor: SessionUser, input: { id: number; published: boolean }) {
  return db.transaction().execute(async (trx) => {
    const review = await trx
      .selectFrom('ratings as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select(['r.id', 'r.comment', 'r.is_published', 'u.first_name', 'u.last_name'])
      .where('r.id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!review) throw notFound('That review does not exist.');
    if (review.is_published === input.published) {
      return { message: input.published ? 'The review is already published.' : 'The review is already unpublished.' };
    }
    if (input.published && review.comment.trim() === '') {
      throw badRequest('Only reviews with a comment can be published: a testimonial needs words.');
    }
    await trx.updateTable('ratings').set({ is_published: input.published }).where('id', '=', input.id).execute();
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
  const rows = await db
    .selectFrom('ratings as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.id', 'r.half_stars', 'r.comment', 'r.created_at', 'u.first_name'])
    .where('r.is_published', '=', true)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(MAX_TESTIMONIALS)
    .execute();
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
