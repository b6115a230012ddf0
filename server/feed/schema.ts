import { z } from 'zod';
import { idField, requiredText, tokenText } from '../validation.js';

/**
 * The feed's rules and shapes, shared by the procedures, the REST adapters
 * and the React screens. Every list is bounded:
 * - feed pages: 20 posts by default, at most 50;
 * - each post lists at most 100 liker ids in `likes`; `likeCount` is always the full count;
 * - likers pages: 50 by default, at most 100.
 */
export const FEED_PAGE_DEFAULT = 20;
export const FEED_PAGE_MAX = 50;
export const LIKES_LISTED_MAX = 100;
export const LIKERS_PAGE_DEFAULT = 50;
export const LIKERS_PAGE_MAX = 100;
export const POST_MAX_CHARS = 5000;

/** Query strings send text and empty fields: '' means "not given". */
const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

const pageLimit = (max: number, fallback: number) =>
  z.preprocess(
    (v) => {
      const given = blankToUndefined(v);
      return typeof given === 'string' ? Number(given.trim()) : given;
    },
    z
      .number({ error: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, `limit must be between 1 and ${max}`)
      .max(max, `limit must be between 1 and ${max}`)
      .default(fallback),
  );

/** Feed cursors are opaque to callers: pass back the `nextCursor` you were given. */
const FEED_CURSOR = /^(\d{1,16})_(\d{1,10})$/;
const LIKERS_CURSOR = /^\d{1,10}$/;

const cursorField = (pattern: RegExp) =>
  z.preprocess(blankToUndefined, z.string().regex(pattern, 'cursor is not valid: pass the nextCursor of the previous page').optional());

/** Position of a post in the feed's order: its creation moment in microseconds since 1970, then its id. */
export type FeedPosition = { micros: number; id: number };

export function encodeFeedCursor(p: FeedPosition): string {
  return `${p.micros}_${p.id}`;
}

export function decodeFeedCursor(cursor: string): FeedPosition | null {
  const m = FEED_CURSOR.exec(cursor);
  if (!m) return null;
  const micros = Number(m[1]);
  const id = Number(m[2]);
  return Number.isSafeInteger(micros) && Number.isSafeInteger(id) ? { micros, id } : null;
}

export const listFeedInput = z.object({
  cursor: cursorField(FEED_CURSOR),
  limit: pageLimit(FEED_PAGE_MAX, FEED_PAGE_DEFAULT),
});

export const feedItem = z.object({
  id: z.number().int(),
  desc: z.string(),
  /** ISO 8601 moment. */
  createdAt: z.string(),
  /** Ids of users who like the post: at most LIKES_LISTED_MAX (100), lowest ids first. */
  likes: z.array(z.number().int()),
  likeCount: z.number().int(),
  likedByMe: z.boolean(),
  author: z.object({ name: z.string() }),
});

export const feedPage = z.object({
  items: z.array(feedItem),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});

/** `id` is the signed-in user's id (the spec's payload); `feedId` the post. */
export const toggleLikeInput = z.object({
  id: idField('id'),
  feedId: idField('feedId'),
});

export const toggleLikeResult = z.object({
  feedId: z.number().int(),
  liked: z.boolean(),
  likeCount: z.number().int(),
});

export const likersInput = z.object({
  postId: idField('postId'),
  cursor: cursorField(LIKERS_CURSOR),
  limit: pageLimit(LIKERS_PAGE_MAX, LIKERS_PAGE_DEFAULT),
});

export const liker = z.object({
  id: z.number().int(),
  profile: z.object({ fName: z.string(), lName: z.string() }),
});

export const likersPage = z.object({
  items: z.array(liker),
  nextCursor: z.string().nullable(),
});

/** A post's text: plain text with line breaks, 1 to 5000 characters after trimming. */
export const postDescription = z.preprocess(
  (v) => (typeof v === 'string' ? v.replace(/\r\n?/g, '\n') : v),
  requiredText('Description is required', POST_MAX_CHARS, { multiline: true }),
);

export const createPostInput = z.object({ desc: postDescription });
export const updatePostInput = z.object({ id: idField('id'), desc: postDescription });
export const removePostInput = z.object({ id: idField('id') });
export const removedPost = z.object({ id: z.number().int() });

/**
 * feed.events input. tRPC fills `lastEventId` in by itself when it
 * reconnects; an id this server does not know leads to a 'resync' event.
 */
export const feedEventsInput = z
  .object({ lastEventId: tokenText('lastEventId', 40, 'lastEventId is not an event id').nullish() })
  .nullish();

/**
 * What a subscriber receives (each wrapped in a tracked event id):
 * - 'ready': caught up, live from here (sent once per subscription, after any catch-up);
 * - 'resync': events were missed and cannot be replayed: refetch the feed;
 * - 'post.created' / 'post.updated': the post as feed.list shows it to this viewer;
 * - 'post.deleted': drop the post;
 * - 'like.changed': the post's new like count; `likedByMe` is present only when it is
 *   known for this viewer (the viewer made the change, or the event is a catch-up replay).
 */
export type FeedItem = z.infer<typeof feedItem>;
export type FeedEvent =
  | { kind: 'ready' }
  | { kind: 'resync' }
  | { kind: 'post.created' | 'post.updated'; postId: number; post: FeedItem }
  | { kind: 'post.deleted'; postId: number }
  | { kind: 'like.changed'; postId: number; likeCount: number; likedByMe?: boolean };

export type ListFeedInput = z.infer<typeof listFeedInput>;
export type ToggleLikeInput = z.infer<typeof toggleLikeInput>;
export type LikersInput = z.infer<typeof likersInput>;
export type CreatePostInput = z.infer<typeof createPostInput>;
export type UpdatePostInput = z.infer<typeof updatePostInput>;
