import type { Db } from '../db/index.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../observability/metrics.js';
import { type FeedBusMessage, type FeedNotification, latestFeedEventId } from './bus.js';
import type { LiveCatchUp, LiveChannel, LiveShown, LiveSubscriber, LiveViews, ResumableStream } from '../realtime/live-channel.js';
import * as repo from './repo.js';
import type { FeedEvent, FeedItem } from './schema.js';
import { type FeedDeps, toFeedItem } from './service.js';

/**
 * The live feed's rules (realtime/live-channel.ts does the delivery): what a
 * viewer sees of each feed event, and what a reconnecting viewer missed.
 */

/** A reconnecting subscriber is replayed at most this many events, at most this old; beyond that it resyncs. */
export const CATCH_UP_MAX_EVENTS = 500;
export const CATCH_UP_MAX_AGE_MS = 24 * 3600_000;

type StreamDeps = FeedDeps & { logger: Logger; metrics?: Pick<Metrics, 'feedDelivered'> };

async function likedBy(db: Db, post: FeedItem, viewerId: number): Promise<boolean> {
  if (post.likeCount === 0) return false;
  // The listed ids are complete unless the post has more likes than are listed.
  if (post.likes.length === post.likeCount) return post.likes.includes(viewerId);
  return repo.hasLiked(db, post.id, viewerId);
}

/** The view of a live event that needs no database (almost every one), or undefined when it does. */
function viewNow(viewerId: number, n: FeedNotification, views: LiveViews<FeedEvent>): LiveShown<FeedEvent> | undefined {
  if (n.kind === 'post.deleted') return views.shared('all', () => ({ kind: 'post.deleted', postId: n.postId }));
  if (n.kind !== 'like.changed' || n.likeCount === undefined) return undefined;
  const likeCount = n.likeCount;
  if (n.actorId === viewerId && n.liked !== undefined) {
    const likedByMe = n.liked;
    return views.shared('actor', () => ({ kind: 'like.changed', postId: n.postId, likeCount, likedByMe }));
  }
  return views.shared('others', () => ({ kind: 'like.changed', postId: n.postId, likeCount }));
}

/** A live event that needs the post: fetched once per event (viewer-independent), each viewer's own like added. */
async function viewLive(
  deps: StreamDeps,
  viewerId: number,
  n: FeedNotification,
  views: LiveViews<FeedEvent>,
): Promise<LiveShown<FeedEvent>> {
  const post = await views.memo('post', () => repo.postsByIds(deps.db, null, [n.postId]).then(([row]) => (row ? toFeedItem(row) : null)));
  if (!post) return null; // removed since: its post.deleted event follows
  const likedByMe = await likedBy(deps.db, post, viewerId);
  if (n.kind === 'like.changed') {
    // Logged before counts were (a missed notification): today's figures.
    const mine = n.actorId === viewerId;
    return views.shared(mine ? `actor:${likedByMe}` : 'others', () => ({
      kind: 'like.changed',
      postId: n.postId,
      likeCount: post.likeCount,
      ...(mine ? { likedByMe } : {}),
    }));
  }
  const kind = n.kind as 'post.created' | 'post.updated';
  return views.shared(`liked:${likedByMe}`, () => ({ kind, postId: n.postId, post: { ...post, likedByMe } }));
}

type CatchUp = LiveCatchUp<FeedEvent>;

/**
 * Everything after `lastEventId`, as this viewer sees it now. Event ids are
 * handed out in commit order (see FEED_WRITE_LOCK in event-log.ts), so "id > lastEventId" is
 * complete. Every like change is replayed as it was sent live (the log keeps
 * its count and the actor's like); post events carry the post as it is now,
 * and those of posts removed since are left out (their post.deleted is replayed).
 */
export async function catchUpSince(db: Db, viewerId: number, lastEventId: string): Promise<CatchUp> {
  const latest = (await latestFeedEventId(db)) ?? 0;
  const resync = (): CatchUp => ({ events: [], position: latest, resync: true });
  const since = /^\d{1,16}$/.test(lastEventId) ? Number(lastEventId) : Number.NaN;
  if (!Number.isSafeInteger(since) || since > latest) return resync(); // not an id of this database
  // 0 is the position of an empty log; any other position must still be logged (pruned → too old).
  if (since > 0 && !(await repo.eventById(db, since))) return resync();
  const rows = await repo.eventsAfter(db, since, CATCH_UP_MAX_EVENTS + 1);
  const first = rows[0];
  if (!first) return { events: [], position: since, resync: false };
  if (rows.length > CATCH_UP_MAX_EVENTS || first.created_at.getTime() < Date.now() - CATCH_UP_MAX_AGE_MS) return resync();

  // Posts are needed for post events, and for like events logged before their count was (their count is today's).
  const needsPost = (r: repo.LoggedEvent) => r.kind !== 'post.deleted' && (r.kind !== 'like.changed' || r.like_count === null);
  const postIds = [...new Set(rows.filter(needsPost).map((r) => r.post_id))];
  const posts = new Map((await repo.postsByIds(db, viewerId, postIds)).map((r) => [r.id, toFeedItem(r)]));

  const events: CatchUp['events'] = [];
  for (const r of rows) {
    if (r.kind === 'post.deleted') {
      events.push({ id: r.id, event: { kind: 'post.deleted', postId: r.post_id } });
    } else if (r.kind === 'like.changed' && r.like_count !== null) {
      const mine = r.actor_id === viewerId && r.liked !== null;
      events.push({
        id: r.id,
        event: { kind: 'like.changed', postId: r.post_id, likeCount: r.like_count, ...(mine ? { likedByMe: r.liked! } : {}) },
      });
    } else {
      const post = posts.get(r.post_id);
      if (!post) continue;
      events.push({
        id: r.id,
        event:
          r.kind === 'like.changed'
            ? { kind: 'like.changed', postId: r.post_id, likeCount: post.likeCount, likedByMe: post.likedByMe }
            : { kind: r.kind, postId: r.post_id, post },
      });
    }
  }
  return { events, position: rows.at(-1)!.id, resync: false };
}

/** feed.events as a live stream: viewer = the viewer's user id, notifications = the feed bus's messages. */
export function feedStream(deps: StreamDeps): ResumableStream<number, FeedBusMessage, FeedEvent> {
  return {
    name: 'feed',
    ready: { kind: 'ready' },
    resume: {
      position: (m) => m.eventId,
      latest: async () => (await latestFeedEventId(deps.db)) ?? 0,
      catchUp: (viewerId, cursor) => catchUpSince(deps.db, viewerId, cursor),
      resync: { kind: 'resync' },
    },
    view(viewerId, m, views) {
      if (m.kind === 'resync') return views.shared('resync', () => ({ kind: 'resync' }));
      deps.metrics?.feedDelivered(m.at);
      return viewNow(viewerId, m, views) ?? viewLive(deps, viewerId, m, views);
    },
    onViewError(err, m) {
      // The event happened but cannot be shown: better a refetch than a silent gap.
      deps.logger.warn('feed event could not be prepared', { eventId: m.eventId, error: err.message });
      return { kind: 'resync' };
    },
  };
}

/** feed.events for one viewer, through the feed's live channel. */
export function feedEventStream(deps: StreamDeps & { feedLive: LiveChannel<FeedBusMessage> }, subscriber: LiveSubscriber<number>) {
  return deps.feedLive.open(feedStream(deps), subscriber);
}
