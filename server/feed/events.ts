import { AppError } from '../errors.js';
import { type TrackedEnvelope, tracked } from '@trpc/server';
import type { Db } from '../db/index.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../observability/metrics.js';
import { type FeedBus, type FeedBusMessage, type FeedNotification, latestFeedEventId } from '../realtime/feed-bus.js';
import * as repo from './repo.js';
import type { FeedEvent, FeedItem } from './schema.js';
import { announceOnSend, sendShared, shareSerialization, trackedFrame } from '../realtime/shared-frames.js';
import type { WebSocket } from 'ws';
import { type FeedDeps, toFeedItem } from './service.js';

/** A reconnecting subscriber is replayed at most this many events, at most this old; beyond that it resyncs. */
export const CATCH_UP_MAX_EVENTS = 500;
export const CATCH_UP_MAX_AGE_MS = 24 * 3600_000;
/** Events waiting for one slow subscriber before its backlog is dropped for a resync. */
const INBOX_MAX = 1000;
/** Posts fetched for live events, per instance, keyed by event id. */
const POST_CACHE_SIZE = 256;

type StreamDeps = FeedDeps & { logger: Logger; metrics?: Pick<Metrics, 'feedDelivered'> };
type Tracked = TrackedEnvelope<FeedEvent>;

/**
 * The post behind a live event, fetched once per event per instance however
 * many subscribers need it. It is viewer-independent (likedByMe false); each
 * subscriber works out its own likedByMe from it.
 */
const postCaches = new WeakMap<FeedBus, Map<number, Promise<FeedItem | null>>>();

function postForEvent(deps: StreamDeps, eventId: number, postId: number): Promise<FeedItem | null> {
  let cache = postCaches.get(deps.feedBus);
  if (!cache) {
    cache = new Map();
    postCaches.set(deps.feedBus, cache);
  }
  const hit = cache.get(eventId);
  if (hit) return hit;
  const load = repo.postsByIds(deps.db, null, [postId]).then(([row]) => (row ? toFeedItem(row) : null));
  cache.set(eventId, load);
  load.catch(() => cache.delete(eventId));
  for (const key of cache.keys()) {
    if (cache.size <= POST_CACHE_SIZE) break;
    cache.delete(key); // Maps keep insertion order: the oldest events go first
  }
  return load;
}

async function likedBy(db: Db, post: FeedItem, viewerId: number): Promise<boolean> {
  if (post.likeCount === 0) return false;
  // The listed ids are complete unless the post has more likes than are listed.
  if (post.likes.length === post.likeCount) return post.likes.includes(viewerId);
  return repo.hasLiked(db, post.id, viewerId);
}

/**
 * The views of one live event, each shared by every subscriber that sees it
 * the same way ("others" for a like someone else made, "liked" / "not liked"
 * for a post): one object, serialized once for all their sockets.
 */
const sharedViews = new WeakMap<FeedNotification, Map<string, FeedEvent>>();

function sharedView(n: FeedNotification, key: string, make: () => FeedEvent): FeedEvent {
  let views = sharedViews.get(n);
  if (!views) {
    views = new Map();
    sharedViews.set(n, views);
  }
  let view = views.get(key);
  if (!view) {
    view = shareSerialization(make());
    views.set(key, view);
  }
  return view;
}

/** The view of a live event that needs no database (almost every one), or undefined when it does. */
function viewNow(viewerId: number, n: FeedNotification): FeedEvent | undefined {
  if (n.kind === 'post.deleted') return sharedView(n, 'all', () => ({ kind: 'post.deleted', postId: n.postId }));
  if (n.kind !== 'like.changed' || n.likeCount === undefined) return undefined;
  const likeCount = n.likeCount;
  if (n.actorId === viewerId && n.liked !== undefined) {
    const likedByMe = n.liked;
    return sharedView(n, 'actor', () => ({ kind: 'like.changed', postId: n.postId, likeCount, likedByMe }));
  }
  return sharedView(n, 'others', () => ({ kind: 'like.changed', postId: n.postId, likeCount }));
}

/** A live event as this viewer may see it: ids, counts and the viewer's own like only. */
async function viewLive(deps: StreamDeps, viewerId: number, n: FeedNotification): Promise<FeedEvent | null> {
  const now = viewNow(viewerId, n);
  if (now) return now;
  const post = await postForEvent(deps, n.eventId, n.postId);
  if (!post) return null; // removed since: its post.deleted event follows
  const likedByMe = await likedBy(deps.db, post, viewerId);
  if (n.kind === 'like.changed') {
    // Logged before counts were (a missed notification): today's figures.
    const mine = n.actorId === viewerId;
    return sharedView(n, mine ? `actor:${likedByMe}` : 'others', () => ({
      kind: 'like.changed',
      postId: n.postId,
      likeCount: post.likeCount,
      ...(mine ? { likedByMe } : {}),
    }));
  }
  const kind = n.kind as 'post.created' | 'post.updated';
  return sharedView(n, `liked:${likedByMe}`, () => ({ kind, postId: n.postId, post: { ...post, likedByMe } }));
}

type CatchUp = { events: { id: number; event: FeedEvent }[]; position: number; resync: boolean };

/**
 * Everything after `lastEventId`, as this viewer sees it now. Event ids are
 * handed out in commit order (see FEED_WRITE_LOCK in realtime/feed-event-log.ts), so "id > lastEventId" is
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

/** Bus messages for one subscriber, waiting for it to take them. */
/** A subscriber's waiting messages plus one more; past INBOX_MAX the backlog is dropped for a resync (it refetches). */
function withMessage(backlog: FeedBusMessage[], message: FeedBusMessage): FeedBusMessage[] {
  if (backlog.length >= INBOX_MAX) return [{ kind: 'resync', eventId: message.eventId }];
  backlog.push(message);
  return backlog;
}

class Inbox {
  private items: FeedBusMessage[] = [];
  private wake: (() => void) | null = null;

  constructor(private readonly signal: AbortSignal) {
    signal.addEventListener('abort', () => this.wakeUp(), { once: true });
  }

  push(message: FeedBusMessage) {
    this.items = withMessage(this.items, message);
    this.wakeUp();
  }

  /** Everything waiting, oldest first; the inbox is empty afterwards. */
  drain(): FeedBusMessage[] {
    return this.items.splice(0);
  }

  /** The next message, or null once the subscriber has gone. */
  async take(): Promise<FeedBusMessage | null> {
    while (this.items.length === 0) {
      if (this.signal.aborted) return null;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    return this.signal.aborted ? null : (this.items.shift() ?? null);
  }

  private wakeUp() {
    const w = this.wake;
    this.wake = null;
    w?.();
  }
}

/** What a live subscriber's socket must offer (a `ws` WebSocket). */
export type LiveSocket = Pick<WebSocket, 'send' | 'extensions' | 'bufferedAmount' | 'readyState' | 'terminate'>;
/** A socket with this much not yet sent is far behind: it is dropped, and its client reconnects and catches up. */
const LIVE_BUFFER_MAX = 4 * 1024 * 1024;

type Outgoing = { id: string; event: FeedEvent };

/**
 * The stream's rules for live messages, whichever way they reach the
 * subscriber (its async generator, or liveSink): a resync or event the
 * catch-up already covered is skipped, the session is checked before each
 * event, a view that cannot be prepared becomes a resync. `next` answers at
 * once when it can, with a promise only when it must wait (the database, the
 * session store); it throws (or rejects) UNAUTHORIZED once the session ended.
 */
function liveRules(
  deps: StreamDeps,
  viewerId: number,
  stillSignedIn: () => boolean | Promise<boolean>,
  startPosition: number,
  replayedUpTo: number,
) {
  let position = startPosition;
  const ended = () => new AppError('UNAUTHORIZED', 'Your session has ended. Please sign in again.');

  const shown = (message: FeedNotification, event: FeedEvent | null): Outgoing | null => {
    position = Math.max(position, message.eventId);
    if (!event) return null;
    deps.metrics?.feedDelivered(message.at);
    return { id: String(message.eventId), event };
  };

  const view = (message: FeedNotification): Outgoing | null | Promise<Outgoing | null> => {
    const now = viewNow(viewerId, message);
    if (now) return shown(message, now);
    return viewLive(deps, viewerId, message).then(
      (event) => shown(message, event),
      (err: Error) => {
        // The event happened but cannot be shown: better a refetch than a silent gap.
        deps.logger.warn('feed event could not be prepared', { eventId: message.eventId, error: err.message });
        return shown(message, { kind: 'resync' });
      },
    );
  };

  return {
    next(message: FeedBusMessage): Outgoing | null | Promise<Outgoing | null> {
      if (message.kind === 'resync') {
        // Already covered: the catch-up read the log (or sent its own resync) past these events.
        if (message.eventId <= replayedUpTo) return null;
        replayedUpTo = message.eventId;
        return { id: String(Math.max(position, message.eventId)), event: { kind: 'resync' } };
      }
      if (message.eventId <= replayedUpTo) return null;
      const live = stillSignedIn();
      if (live === true) return view(message);
      if (live === false) throw ended();
      return live.then((ok) => {
        if (!ok) throw ended();
        return view(message);
      });
    },
  };
}

/**
 * The live part of one subscription over a WebSocket: each bus message is
 * turned into this viewer's event (liveRules) and written to the socket at
 * once, as the message tRPC itself would send (trackedFrame), framed once
 * for every socket (sendShared), instead of travelling through the
 * subscription's async iterator and tRPC's loop. That
 * path took several promise turns per subscriber, so a like reached no socket
 * until it had reached every subscriber's loop (issue 10). Events go out in
 * order: one that waits holds back the ones behind it.
 */
function liveSink(rules: ReturnType<typeof liveRules>, subscription: { socket: LiveSocket; id: unknown; jsonrpc: unknown }) {
  const { socket } = subscription;
  let queue: FeedBusMessage[] = [];
  let busy = false;
  let finished = false;
  let settle!: (err?: Error) => void;
  const ended = new Promise<void>((resolve, reject) => {
    settle = (err) => (err ? reject(err) : resolve());
  });
  const finish = (err?: Error) => {
    if (finished) return;
    finished = true;
    queue = [];
    settle(err);
  };

  const send = (out: Outgoing | null) => {
    if (!out || socket.readyState !== 1) return; // not OPEN: closing, and its subscription ends with it
    if (socket.bufferedAmount > LIVE_BUFFER_MAX) {
      socket.terminate();
      return;
    }
    sendShared(socket, trackedFrame(subscription.id, subscription.jsonrpc, out.id, out.event));
  };

  const drain = () => {
    while (queue.length && !finished) {
      let out: ReturnType<typeof rules.next>;
      try {
        out = rules.next(queue.shift()!);
      } catch (err) {
        return finish(err as Error);
      }
      if (!(out instanceof Promise)) {
        send(out);
        continue;
      }
      busy = true;
      out.then(
        (ready) => {
          busy = false;
          send(ready);
          drain();
        },
        (err: Error) => finish(err),
      );
      return;
    }
  };

  return {
    push(message: FeedBusMessage) {
      if (finished) return;
      queue = withMessage(queue, message);
      if (!busy) drain();
    },
    /** Settles when the subscriber leaves (the signal aborts), or rejects when its session has ended. */
    ended(signal: AbortSignal | undefined): Promise<void> {
      if (signal?.aborted) finish();
      else signal?.addEventListener('abort', () => finish(), { once: true });
      return ended;
    },
  };
}

/**
 * feed.events for one viewer: subscribes to the bus first, then replays what
 * the viewer missed since `lastEventId`, says 'ready', and streams live
 * events until the subscriber leaves (the signal aborts).
 */
export async function* feedEventStream(
  deps: StreamDeps,
  viewerId: number,
  lastEventId: string | null | undefined,
  signal: AbortSignal | undefined,
  /** Whether the viewer's session is still live, checked before each live event (a socket outlives any one check). */
  stillSignedIn: () => boolean | Promise<boolean> = () => true,
  /** The subscriber's WebSocket, when it came over one: live events are then written to it directly. */
  socket?: LiveSocket,
): AsyncGenerator<Tracked, void, unknown> {
  const inbox = new Inbox(signal ?? new AbortController().signal);
  // One listener for the stream's whole life (the bus may be part-way through telling its listeners of a message).
  let tell = (m: FeedBusMessage) => inbox.push(m);
  const unsubscribe = deps.feedBus.subscribe((m) => tell(m));
  try {
    /** Live events up to here were replayed already. */
    let replayedUpTo = 0;
    let position: number;
    if (lastEventId == null || lastEventId === '') {
      // A fresh viewer loads the list itself; a notification that arrives late
      // for an event already in the log at this point is in that list.
      position = replayedUpTo = (await latestFeedEventId(deps.db)) ?? 0;
    } else {
      const caughtUp = await catchUpSince(deps.db, viewerId, lastEventId);
      for (const e of caughtUp.events) yield tracked(String(e.id), e.event);
      position = replayedUpTo = caughtUp.position;
      if (caughtUp.resync) yield tracked(String(position), { kind: 'resync' });
    }
    // Over a WebSocket, tRPC's encoder tells 'ready' this subscription's id as it sends it (announceOnSend)...
    const subscription: { id?: unknown; jsonrpc?: unknown; known: boolean } = { known: false };
    const ready: FeedEvent = { kind: 'ready' };
    if (socket)
      announceOnSend(ready, (id, jsonrpc) => {
        Object.assign(subscription, { id, jsonrpc, known: true });
      });
    yield tracked(String(position), ready);
    const rules = liveRules(deps, viewerId, stillSignedIn, position, replayedUpTo);
    if (socket && subscription.known) {
      // ...and from here on its live events are written straight to the socket, in order (liveSink).
      const sink = liveSink(rules, { socket, id: subscription.id, jsonrpc: subscription.jsonrpc });
      tell = sink.push;
      for (const m of inbox.drain()) sink.push(m);
      await sink.ended(signal);
      return;
    }

    while (true) {
      const message = await inbox.take();
      if (!message) return;
      let out = rules.next(message);
      // No await (and no extra turn of the loop per subscriber) when the view needs no database.
      if (out instanceof Promise) out = await out;
      if (out) yield tracked(out.id, out.event);
    }
  } finally {
    unsubscribe();
  }
}
