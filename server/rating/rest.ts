import { defineRoutes, untrusted } from '../rest/route.js';
import { conflict } from '../errors.js';
import { ALREADY_RATED, addRatingInput, checkIsRatedInput, rating, ratedStatus } from './schema.js';

export const ratingRoutes = defineRoutes([
  {
    method: 'post',
    path: '/client/ratings/add-rating',
    summary: 'Rate the service once (0.5 to 5 stars in half steps, optional comment)',
    tag: 'Ratings',
    auth: 'required',
    request: { body: addRatingInput },
    response: rating,
    successStatus: 201,
    errors: { 409: ALREADY_RATED },
    handle: async ({ caller, body }) => {
      const added = await caller.rating.add(untrusted(body));
      return { status: 201, message: added.message, data: added.data };
    },
  },
  {
    method: 'get',
    path: '/ratings/check-is-rated',
    summary: 'Whether a user has rated the service: 409 when they have, 200 with { rated: false } when not',
    tag: 'Ratings',
    auth: 'required',
    request: { query: checkIsRatedInput },
    response: ratedStatus,
    errors: { 409: ALREADY_RATED },
    handle: async ({ caller, query }) => {
      const status = await caller.rating.checkIsRated(untrusted(query));
      // The spec's client reads 409 as "already rated".
      if (status.rated) throw conflict(ALREADY_RATED);
      return { message: 'Not rated yet', data: status };
    },
  },
]);
