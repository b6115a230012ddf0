import { z } from 'zod';
import { defineRoutes, untrusted } from '../rest/route.js';
import { feedItem, likersInput, liker, listFeedInput, toggleLikeInput, toggleLikeResult } from './schema.js';

/** REST keeps `data` the plain list the spec reads; the next page's cursor sits beside it, top level (null on the last page). */
const paged = { nextCursor: z.string().nullable() };

export const feedRoutes = defineRoutes([
  {
    method: 'get',
    path: '/feeds/get-feeds',
    summary: `Posts, newest first: 20 a page (limit up to 50), each with at most 100 liker ids beside likeCount; pass the top-level nextCursor as cursor for the next page`,
    tag: 'Feeds',
    auth: 'required',
    request: { query: listFeedInput },
    response: z.array(feedItem),
    responseExtra: paged,
    handle: async ({ caller, query }) => {
      const page = await caller.feed.list(untrusted(query));
      return {
        message: page.items.length ? 'Feeds loaded' : 'No updated feed',
        data: page.items,
        extra: { nextCursor: page.nextCursor },
      };
    },
  },
  {
    method: 'put',
    path: '/feeds/update-feed',
    summary: 'Like a post, or take the like back (id is your own user id)',
    tag: 'Feeds',
    auth: 'required',
    request: { body: toggleLikeInput },
    response: toggleLikeResult,
    errors: { 403: 'The id is not yours, or the caller is a dietitian (only clients like posts).', 404: 'No such post.' },
    handle: async ({ caller, body }) => {
      const result = await caller.feed.toggleLike(untrusted(body));
      return { message: result.liked ? 'You liked this post' : 'You took back your like', data: result };
    },
  },
  {
    method: 'get',
    path: '/feeds/view-likes',
    summary: `Who liked a post, by first and last name: 50 a page (limit up to 100); pass the top-level nextCursor as cursor for the next page`,
    tag: 'Feeds',
    auth: 'required',
    request: { query: likersInput },
    response: z.array(liker),
    responseExtra: paged,
    errors: { 404: 'No such post.' },
    handle: async ({ caller, query }) => {
      const page = await caller.feed.likers(untrusted(query));
      return { message: 'Likes loaded', data: page.items, extra: { nextCursor: page.nextCursor } };
    },
  },
]);
