import type { Kysely } from 'kysely';
import { ROLE } from '../auth/roles.js';
import type { SessionUser } from '../auth/session.js';
import { BRAND } from '../brand.js';
import type { Db } from '../db/index.js';
import type { Database } from '../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { recordAudit } from '../audit/record.js';
import type { FeedBus } from './bus.js';
import type { FeedPageCache } from './page-cache.js';
import { checkedItems, keepRows } from './checked-items.js';
import * as repo from './repo.js';
import { createTurns } from './turns.js';
import {
  type CreatePostInput,
  decodeFeedCursor,
  encodeFeedCursor,
  type FeedItem,
  type LikersInput,
  type ListFeedInput,
  type ToggleLikeInput,
  type UpdatePostInput,
} from './schema.js';

export type FeedDeps = { db: Kysely<Database>; feedBus: FeedBus; feedPages: FeedPageCache };

const POST_NOT_FOUND = 'That post does not exist. It may have been removed.';
const BAD_CURSOR = 'cursor is not valid: pass the nextCursor of the previous page';

export function toFeedItem(row: repo.PostRow, likedByMe = row.liked_by_me): FeedItem {
  return {
    id: row.id,
    desc: row.description,
    createdAt: row.created_at.toISOString(),
    likes: row.likes,
    likeCount: row.like_count,
    likedByMe,
    // Every post is the service's: readers see the team's name, never an account's.
    author: { name: BRAND.adminDisplayName },
  };
}

/**
 * A page of the feed, newest first. The page is the same for every viewer
 * (kept in memory between changes: page-cache.ts); the viewer's own likes are
 * read from its listed likers, and from the database only for posts with more
 * likes than are listed. Its items are shared and frozen (checked-items.ts).
 */
export async function listFeed(deps: Pick<FeedDeps, 'db' | 'feedPages'>, viewer: SessionUser, input: ListFeedInput) {
  const before = input.cursor ? decodeFeedCursor(input.cursor) : null;
  if (input.cursor && !before) throw badRequest(BAD_CURSOR, { cursor: [BAD_CURSOR] });
  const key = `${input.cursor ?? ''}/${input.limit}`;
  const kept = await deps.feedPages.rows(key, async () => keepRows(await repo.listPosts(deps.db, null, before, input.limit)));
  const rows = kept.rows;
  // Whether the viewer likes each post of the page: from the listed liker ids, else one small query for posts with more likes than are listed.
  const liked: boolean[] = [];
  const unlisted: number[] = [];
  for (const row of rows.slice(0, input.limit)) {
    const listed = row.likes.includes(viewer.id);
    liked.push(listed);
    if (!listed && row.like_count > row.likes.length) unlisted.push(row.id);
  }
  if (unlisted.length) {
    const likedUnlisted = new Set(await repo.likedAmong(deps.db, viewer.id, unlisted));
    liked.forEach((likes, i) => {
      if (!likes && likedUnlisted.has(rows[i]!.id)) liked[i] = true;
    });
  }
  const last = rows[liked.length - 1];
  return {
    items: checkedItems(kept, liked, toFeedItem),
    nextCursor: rows.length > input.limit && last ? encodeFeedCursor({ micros: last.position_micros, id: last.id }) : null,
  };
}

/** Toggles of one post, one at a time on this instance (see toggleLike). */
const postTurns = createTurns<number>();
/** Statements a toggle may take when the same user's toggles race it from other instances (repo.toggleLike). */
const TOGGLE_ATTEMPTS = 5;

/**
 * Likes a post, or takes the like back. Likes are rows keyed (post, user),
 * so repeating a toggle can never double-count; the post's kept count moves
 * with them, and the change is logged and announced, all in one statement
 * (repo.toggleLike). Toggles of one post take turns on its row lock, so the
 * count sent with the event is exact when it commits and a later event never
 * carries an older count; other posts are not held up.
 * Within this instance they also take turns before borrowing a pooled connection: a crowd liking
 * one post then waits in memory, not on pooled connections stuck behind the row lock (which
 * starved every other request of the pool until they timed out with 503).
 */
export async function toggleLike(deps: FeedDeps, actor: SessionUser, input: ToggleLikeInput) {
  // Clients like the dietitians' posts; a like is personal, so nobody likes on someone else's behalf.
  if (actor.role === ROLE.admin) throw forbidden('Only clients can like posts.');
  if (input.id !== actor.id) throw forbidden('You can only access your own data.');
  return postTurns(input.feedId, () => feedWrite(deps, () => toggleOnce(deps, actor.id, input.feedId)));
}

async function toggleOnce(deps: FeedDeps, userId: number, feedId: number) {
  for (let attempt = 0; attempt < TOGGLE_ATTEMPTS; attempt++) {
    const outcome = await repo.toggleLike(deps.db, feedId, userId, Date.now());
    if (!outcome.found) throw notFound(POST_NOT_FOUND);
    if (outcome.changed) {
      await deps.feedBus.published(deps.db, outcome.eventId);
      return { feedId, liked: outcome.liked, likeCount: outcome.likeCount };
    }
  }
  throw conflict('Your like of this post was changing elsewhere at the same moment. Please try again.');
}

/**
 * Runs one change to the feed; when it ends (committed or not, or unknown
 * after a lost connection) this instance's kept pages are evicted, so its
 * next read sees the change. Other instances evict theirs on the change's
 * event.
 */
async function feedWrite<T>(deps: FeedDeps, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    deps.feedPages.evict();
  }
}

/** Runs one change to the feed in a transaction (feedWrite). */
function feedTransaction<T>(deps: FeedDeps, work: (trx: Db) => Promise<T>): Promise<T> {
  return feedWrite(deps, () => deps.db.transaction().execute(work));
}

export async function listLikers(db: Db, _viewer: SessionUser, input: LikersInput) {
  if (!(await repo.postExists(db, input.postId))) throw notFound(POST_NOT_FOUND);
  const after = input.cursor ? Number(input.cursor) : null;
  const rows = await repo.listLikers(db, input.postId, after, input.limit);
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    items: page.map((u) => ({ id: u.id, profile: { fName: u.first_name, lName: u.last_name } })),
    nextCursor: rows.length > input.limit && last ? String(last.id) : null,
  };
}

async function itemFor(db: Db, viewerId: number, postId: number): Promise<FeedItem> {
  const [row] = await repo.postsByIds(db, viewerId, [postId]);
  if (!row) throw notFound(POST_NOT_FOUND);
  return toFeedItem(row);
}

/** The first words of a post, for the audit trail. */
const excerpt = (text: string) => (text.length > 60 ? `${text.slice(0, 57).trimEnd()}…` : text);

export async function createPost(deps: FeedDeps, admin: SessionUser, input: CreatePostInput) {
  return feedTransaction(deps, async (trx) => {
    const { id } = await repo.insertPost(trx, admin.id, input.desc);
    await recordAudit(trx, admin, {
      action: 'feed_post.created',
      entity: 'feed_post',
      entityId: id,
      summary: `Posted to the feed: “${excerpt(input.desc)}”`,
    });
    await deps.feedBus.publish(trx, { kind: 'post.created', postId: id, actorId: admin.id });
    return itemFor(trx, admin.id, id);
  });
}

export async function updatePost(deps: FeedDeps, admin: SessionUser, input: UpdatePostInput) {
  return feedTransaction(deps, async (trx) => {
    const updated = await repo.updatePost(trx, input.id, input.desc);
    if (!updated) throw notFound(POST_NOT_FOUND);
    await recordAudit(trx, admin, {
      action: 'feed_post.updated',
      entity: 'feed_post',
      entityId: input.id,
      summary: `Edited feed post #${input.id}: “${excerpt(input.desc)}”`,
    });
    await deps.feedBus.publish(trx, { kind: 'post.updated', postId: input.id, actorId: admin.id });
    return itemFor(trx, admin.id, input.id);
  });
}

export async function removePost(deps: FeedDeps, admin: SessionUser, postId: number) {
  return feedTransaction(deps, async (trx) => {
    const removed = await repo.deletePost(trx, postId);
    if (!removed) throw notFound(POST_NOT_FOUND);
    await recordAudit(trx, admin, {
      action: 'feed_post.deleted',
      entity: 'feed_post',
      entityId: postId,
      summary: `Deleted feed post #${postId}`,
    });
    await deps.feedBus.publish(trx, { kind: 'post.deleted', postId, actorId: admin.id });
    return { id: removed.id };
  });
}
