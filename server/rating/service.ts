import { actingFor } from '../auth/guards.js';
import { ROLE } from '../auth/roles.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { conflict, forbidden } from '../errors.js';
import * as repo from './repo.js';
import { ALREADY_RATED, type AddRatingInput, fromHalfStars, RATING_ADDED, toHalfStars } from './schema.js';

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
