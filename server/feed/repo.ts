import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import type { FeedEventKind } from '../db/schema.js';
import { feedEventTail } from './event-log.js';
import { type FeedPosition, LIKES_LISTED_MAX } from './schema.js';

export type PostRow = {
  id: number;
  description: string;
  created_at: Date;
  /** created_at in whole microseconds since 1970: exact, unlike a JS Date (milliseconds). */
  position_micros: number;
  like_count: number;
  likes: number[];
  liked_by_me: boolean;
};

/** A microsecond count as a timestamptz literal, exactly (no float rounding). */
function microsToTimestamp(micros: number): string {
  const seconds = Math.floor(micros / 1_000_000);
  const fraction = String(micros - seconds * 1_000_000).padStart(6, '0');
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, `.${fraction}Z`);
}

/**
 * Posts with their likes as one viewer sees them: the kept count (exact: a
 * trigger on feed_likes maintains it), and from the (post_id, user_id)
 * primary key the first ids and whether the viewer is among them.
 */
function postsFor(db: Db, viewerId: number | null) {
  return db
    .selectFrom('feed_posts as p')
    .select([
      'p.id',
      'p.description',
      'p.created_at',
      sql<number>`(extract(epoch from p.created_at) * 1000000)::int8`.as('position_micros'),
      'p.like_count',
      sql<number[]>`array(select l.user_id from feed_likes l where l.post_id = p.id order by l.user_id limit ${LIKES_LISTED_MAX})`.as(
        'likes',
      ),
      viewerId === null
        ? sql<boolean>`false`.as('liked_by_me')
        : sql<boolean>`exists(select 1 from feed_likes l where l.post_id = p.id and l.user_id = ${viewerId})`.as('liked_by_me'),
    ]);
}

const normalise = (r: PostRow): PostRow => ({
  ...r,
  position_micros: Number(r.position_micros),
  like_count: Number(r.like_count),
  likes: r.likes.map(Number),
});

/** Newest first, keyset on (created_at, id); one row more than asked tells whether a next page exists. */
export async function listPosts(db: Db, viewerId: number | null, before: FeedPosition | null, limit: number): Promise<PostRow[]> {
  let q = postsFor(db, viewerId);
  if (before) q = q.where(sql<boolean>`(p.created_at, p.id) < (${microsToTimestamp(before.micros)}::timestamptz, ${before.id}::int4)`);
  const rows = await q
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit + 1)
    .execute();
  return rows.map(normalise);
}

export async function postsByIds(db: Db, viewerId: number | null, ids: readonly number[]): Promise<PostRow[]> {
  if (ids.length === 0) return [];
  const rows = await postsFor(db, viewerId)
    .where('p.id', 'in', [...ids])
    .execute();
  return rows.map(normalise);
}

export async function postExists(db: Db, id: number): Promise<boolean> {
  return Boolean(await db.selectFrom('feed_posts').select('id').where('id', '=', id).executeTakeFirst());
}

export function insertPost(db: Db, authorId: number, description: string) {
  return db.insertInto('feed_posts').values({ author_id: authorId, description }).returning('id').executeTakeFirstOrThrow();
}

export function updatePost(db: Db, id: number, description: string) {
  return db
    .updateTable('feed_posts')
    .set({ description, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

export function deletePost(db: Db, id: number) {
  return db.deleteFrom('feed_posts').where('id', '=', id).returning('id').executeTakeFirst();
}

/**
 * Set for the rest of a transaction that logs a feed event before it
 * commits: the feed_changed trigger then sends no notification of its own
 * (migration 2026-11-24T0600), since the event already reaches every instance.
 */
const FEED_EVENT_FOLLOWS = 'poshan.feed_event_follows';

/** What one toggle statement did: `found` false when there is no such post. */
export type ToggleOutcome =
  | { found: false }
  /** The like changed: the count after it, exact, and the event that announced it. */
  | { found: true; changed: true; liked: boolean; likeCount: number; eventId: number }
  /** Nothing changed: the same user's toggle from another instance committed while this one waited (see toggleLike). */
  | { found: true; changed: false };

/**
 * Takes the user's like of a post back if there is one, else adds it, and
 * logs and announces the change (feedEventTail), in one statement: one round
 * trip and its own transaction.
 * - The post's row lock comes first: toggles of one post happen one after
 *   another, on every instance, while other posts' go on in parallel. Waiting
 *   for it, the statement reads the count as the toggle before it left it,
 *   and the count sent is that plus this change, exact (a trigger on
 *   feed_likes keeps the column).
 * - The like itself is read in the statement's snapshot, taken before that
 *   wait. Had the same user's toggle of the same post committed meanwhile
 *   (another instance: this one takes turns per post), a like it removed is
 *   simply added again, but a like it added is not seen: the insert finds it
 *   and does nothing, no event is logged, and the outcome says nothing
 *   changed. Run it again: a new statement sees that like and takes it back.
 */
export async function toggleLike(db: Db, postId: number, userId: number, at: number): Promise<ToggleOutcome> {
  const { rows } = await toggleLikeStatement(postId, userId, at).execute(db);
  return toggleOutcome(rows[0]!);
}

type ToggleRow = { found: boolean; liked: boolean | null; like_count: number | null; event_id: string | number | null };

/** The statement of toggleLike, as it is sent (the bench's reference servers send it too). */
export function toggleLikeStatement(postId: number, userId: number, at: number) {
  return sql<ToggleRow>`
    with post as (
      select id, like_count, set_config(${FEED_EVENT_FOLLOWS}, 'on', true) as announced
      from feed_posts where id = ${postId}
      for update
    ), gone as (
      delete from feed_likes where post_id = (select id from post) and user_id = ${userId}
      returning 1
    ), added as (
      insert into feed_likes (post_id, user_id)
      select id, ${userId} from post where not exists (select 1 from gone)
      on conflict (post_id, user_id) do nothing
      returning 1
    ), feed_event_source as (
      select 'like.changed'::text as kind, post.id as post_id, ${userId}::int4 as actor_id,
        (post.like_count + (select count(*) from added) - (select count(*) from gone))::int4 as like_count,
        exists (select 1 from added) as liked
      from post
      where exists (select 1 from added) or exists (select 1 from gone)
    ), ${feedEventTail(at)}
    select exists (select 1 from post) as found, s.liked, s.like_count, e.id as event_id
    from (select 1) as one
    left join feed_event_source s on true
    left join feed_event_sent e on true`;
}

function toggleOutcome(r: ToggleRow): ToggleOutcome {
  if (!r.found) return { found: false };
  if (r.event_id === null) return { found: true, changed: false };
  return { found: true, changed: true, liked: r.liked!, likeCount: r.like_count!, eventId: Number(r.event_id) };
}

/** Which of these posts the user likes. */
export async function likedAmong(db: Db, userId: number, postIds: readonly number[]): Promise<number[]> {
  const rows = await db
    .selectFrom('feed_likes')
    .select('post_id')
    .where('user_id', '=', userId)
    .where('post_id', '=', sql<number>`any(${[...postIds]}::int4[])`)
    .execute();
  return rows.map((r) => r.post_id);
}

export async function hasLiked(db: Db, postId: number, userId: number): Promise<boolean> {
  const r = await db
    .selectFrom('feed_likes')
    .select('user_id')
    .where('post_id', '=', postId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Boolean(r);
}

/** Likers in user-id order (the primary key's order), one more than asked. */
export function listLikers(db: Db, postId: number, afterUserId: number | null, limit: number) {
  let q = db
    .selectFrom('feed_likes as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['u.id', 'u.first_name', 'u.last_name'])
    .where('l.post_id', '=', postId);
  if (afterUserId !== null) q = q.where('l.user_id', '>', afterUserId);
  return q
    .orderBy('l.user_id')
    .limit(limit + 1)
    .execute();
}

export type LoggedEvent = {
  id: number;
  kind: FeedEventKind;
  post_id: number;
  actor_id: number | null;
  /** like.changed: the count and the actor's like as published (null for older rows). */
  like_count: number | null;
  liked: boolean | null;
  created_at: Date;
};

const LOGGED_COLUMNS = ['id', 'kind', 'post_id', 'actor_id', 'like_count', 'liked', 'created_at'] as const;

export async function eventById(db: Db, id: number): Promise<LoggedEvent | undefined> {
  const r = await db.selectFrom('feed_events').select(LOGGED_COLUMNS).where('id', '=', id).executeTakeFirst();
  return r && { ...r, id: Number(r.id) };
}

/** Logged events after `afterId` (and before `beforeId`, when given), oldest first, at most `limit`. */
export async function eventsAfter(db: Db, afterId: number, limit: number, beforeId?: number): Promise<LoggedEvent[]> {
  let query = db.selectFrom('feed_events').select(LOGGED_COLUMNS).where('id', '>', afterId);
  if (beforeId !== undefined) query = query.where('id', '<', beforeId);
  const rows = await query.orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}
