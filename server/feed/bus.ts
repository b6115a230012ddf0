import { sql } from 'kysely';
import type { Db, DbHandle } from '../db/index.js';
import type { FeedEventKind } from '../db/schema.js';
import type { Metrics } from '../observability/metrics.js';
import { eventsAfter, type LoggedEvent } from './repo.js';
import { FEED_CHANNEL, feedEventTail } from './event-log.js';
import { parseNotification } from '../realtime/notification.js';

/** Events kept for catch-up; older ones are pruned now and then as events are published. */
export const FEED_EVENT_RETENTION_DAYS = 7;
const PRUNE_EVERY_N_EVENTS = 100;
/** Listeners told of a message in one go before other work may run (see deliver). */
export const DELIVER_BATCH = 100;
/** A gap wider than this in the received ids is not replayed: subscribers are told to resync. */
const GAP_REPLAY_MAX = 500;
/** How often an instance checks the log for events its LISTEN connection may have missed. */
const LOG_CHECK_MS = 15_000;
/** Events younger than this are left to NOTIFY by the log check (their notification may be in flight). */
const LOG_CHECK_GRACE_SECONDS = 5;

/** What travels through NOTIFY: ids and small numbers only (the payload limit is 8000 bytes). */
export type FeedNotification = {
  eventId: number;
  kind: FeedEventKind;
  postId: number;
  actorId: number | null;
  /** like.changed: the count after the toggle and the actor's like, as published (also when replayed from the log). */
  likeCount?: number;
  liked?: boolean;
  /** When it was published (epoch ms), for the fan-out latency metric; absent when replayed. */
  at?: number;
};

/** Events up to and including `eventId` may have been missed: subscribers should refetch. */
export type FeedResync = { kind: 'resync'; eventId: number };

export type FeedBusMessage = FeedNotification | FeedResync;

export interface FeedBus {
  /**
   * Appends the event to feed_events and NOTIFYs every instance. Call it
   * inside the transaction that made the change: NOTIFY fires only on commit.
   */
  publish(trx: Db, event: Omit<FeedNotification, 'eventId'>): Promise<number>;
  /**
   * For a write that logs its event in its own statement (feedEventTail):
   * counts it and prunes the log now and then. Call it after that statement.
   */
  published(db: Db, eventId: number): Promise<void>;
  /**
   * Every committed event from any instance, in event-id order, each once.
   * Gaps (a dropped LISTEN connection) are replayed from feed_events.
   */
  subscribe(listener: (message: FeedBusMessage) => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function latestFeedEventId(db: Db): Promise<number | null> {
  return db
    .selectFrom('feed_events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst()
    .then((r) => (r?.id == null ? null : Number(r.id)));
}

/** A logged event as the bus delivers it: what its NOTIFY carried, less the publish time. */
export function loggedNotification(r: {
  id: number | string;
  kind: FeedEventKind;
  post_id: number;
  actor_id: number | null;
  like_count: number | null;
  liked: boolean | null;
}): FeedNotification {
  return {
    eventId: Number(r.id),
    kind: r.kind,
    postId: r.post_id,
    actorId: r.actor_id,
    ...(r.like_count === null ? {} : { likeCount: r.like_count }),
    ...(r.liked === null ? {} : { liked: r.liked }),
  };
}

function isNotification(value: unknown): value is FeedNotification {
  const v = value as FeedNotification;
  return (
    typeof v === 'object' &&
    v !== null &&
    Number.isSafeInteger(v.eventId) &&
    typeof v.kind === 'string' &&
    Number.isSafeInteger(v.postId) &&
    (v.actorId === null || Number.isSafeInteger(v.actorId))
  );
}

export function createFeedBus(
  handle: DbHandle,
  onError: (err: Error) => void = () => {},
  opts: { logCheckMs?: number; logCheckGraceSeconds?: number; metrics?: Pick<Metrics, 'feedPublished'> } = {},
): FeedBus {
  const logCheckMs = opts.logCheckMs ?? LOG_CHECK_MS;
  const logCheckGraceSeconds = opts.logCheckGraceSeconds ?? LOG_CHECK_GRACE_SECONDS;
  const db = handle.db;
  const listeners = new Set<(message: FeedBusMessage) => void>();
  let unlisten: (() => Promise<void>) | null = null;
  let logCheck: ReturnType<typeof setInterval> | null = null;
  /** The highest event id delivered (or known to exist when the bus started). */
  let lastSeen: number | null = null;
  /** Notifications are handled one at a time, in arrival order (= commit order). */
  let queue: Promise<void> = Promise.resolve();

  const tell = (batch: readonly ((message: FeedBusMessage) => void)[], message: FeedBusMessage) => {
    for (const listener of batch) {
      try {
        listener(message);
      } catch (err) {
        onError(err as Error);
      }
    }
  };
  /** Batches of listeners still to be told, oldest message first (so each listener hears messages in order). */
  const later: (() => void)[] = [];
  const tellLater = () => {
    later.shift()?.();
    if (later.length) setImmediate(tellLater);
  };
  /**
   * Tells every listener, DELIVER_BATCH at a time: each batch's subscribers run
   * their (asynchronous) path to the socket before the next batch is told, so
   * the first sockets are written within a moment and the rest follow, as a
   * server writing one socket after another does. Told all at once, every
   * subscriber would advance step by step together and no socket would be
   * written before the last subscriber got there (the first socket waited for the
   * whole fan-out).
   */
  const deliver = (message: FeedBusMessage) => {
    const all = [...listeners];
    const queued = later.length > 0;
    // Listeners registered before any socket (the feed page cache) are always in the first batch.
    if (!queued) tell(all.slice(0, DELIVER_BATCH), message);
    for (let i = queued ? 0 : DELIVER_BATCH; i < all.length; i += DELIVER_BATCH) {
      const batch = all.slice(i, i + DELIVER_BATCH);
      later.push(() => tell(batch, message));
    }
    if (!queued && later.length) setImmediate(tellLater);
  };

  /** Delivers the logged events after `after` and before `before` (exclusive). */
  const replayGap = async (after: number, before: number) => {
    let rows: LoggedEvent[];
    try {
      rows = await eventsAfter(db, after, GAP_REPLAY_MAX + 1, before);
    } catch (err) {
      onError(err as Error);
      deliver({ kind: 'resync', eventId: before - 1 });
      return;
    }
    if (rows.length > GAP_REPLAY_MAX) {
      deliver({ kind: 'resync', eventId: before - 1 });
      return;
    }
    for (const r of rows) deliver(loggedNotification(r));
  };

  const receive = async (n: FeedNotification) => {
    if (lastSeen !== null) {
      if (n.eventId <= lastSeen) return; // already delivered (replayed from the log)
      // Ids are handed out in commit order, so a hole is a missed notification
      // (or a rolled-back write, which the log simply does not hold).
      if (n.eventId > lastSeen + 1) await replayGap(lastSeen, n.eventId);
    }
    lastSeen = n.eventId;
    deliver(n);
  };

  const enqueue = (work: () => Promise<void>) => {
    queue = queue.then(work).catch((err) => onError(err as Error));
    return queue;
  };

  /** Catches events whose notification never came (e.g. while the LISTEN connection was down). */
  const checkLog = async () => {
    if (lastSeen === null) return;
    const row = await db
      .selectFrom('feed_events')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${logCheckGraceSeconds})`)
      .executeTakeFirst();
    const newest = row?.id == null ? null : Number(row.id);
    if (newest !== null && newest > lastSeen) {
      await replayGap(lastSeen, newest + 1);
      lastSeen = newest;
    }
  };

  const published = async (db: Db, eventId: number) => {
    opts.metrics?.feedPublished();
    if (eventId % PRUNE_EVERY_N_EVENTS === 0) {
      await db
        .deleteFrom('feed_events')
        .where('created_at', '<', sql<Date>`now() - make_interval(days => ${FEED_EVENT_RETENTION_DAYS})`)
        .execute();
    }
  };

  return {
    async publish(trx, event) {
      // One round trip: the event, its lock, its row and its NOTIFY (feedEventTail).
      const { rows } = await sql<{ id: number | string }>`
        with feed_event_source as (
          select ${event.kind}::text as kind, ${event.postId}::int4 as post_id, ${event.actorId}::int4 as actor_id,
            ${event.likeCount ?? null}::int4 as like_count, ${event.liked ?? null}::boolean as liked
        ), ${feedEventTail(Date.now())}
        select id from feed_event_sent`.execute(trx);
      const eventId = Number(rows[0]!.id);
      await published(trx, eventId);
      return eventId;
    },
    published,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async start() {
      if (unlisten) return;
      // Listen first, then read where the log stands: nothing can fall in between.
      let ready!: () => void;
      const started = new Promise<void>((r) => {
        ready = r;
      });
      void enqueue(() => started);
      try {
        unlisten = await handle.listen(FEED_CHANNEL, (raw) => {
          const parsed = parseNotification(raw, isNotification, 'feed', onError);
          if (parsed) void enqueue(() => receive(parsed));
        });
        lastSeen = (await latestFeedEventId(db)) ?? 0;
      } finally {
        ready();
      }
      logCheck = setInterval(() => void enqueue(checkLog), logCheckMs);
      logCheck.unref();
    },
    async stop() {
      if (logCheck) clearInterval(logCheck);
      logCheck = null;
      const u = unlisten;
      unlisten = null;
      if (u) await u();
      await queue;
      later.length = 0;
      listeners.clear();
    },
  };
}
