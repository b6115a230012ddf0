import { sql } from 'kysely';
import type { Db, DbHandle } from '../db/index.js';
import type { FeedEventKind } from '../db/schema.js';

export const FEED_CHANNEL = 'poshan_feed';

/** What travels through NOTIFY: ids and small numbers only (the payload limit is 8000 bytes). */
export type FeedNotification = {
  eventId: number;
  kind: FeedEventKind;
  postId: number;
  actorId: number | null;
  likeCount?: number;
  liked?: boolean;
};

export interface FeedBus {
  /**
   * Appends the event to feed_events and NOTIFYs every instance. Call it
   * inside the transaction that made the change: NOTIFY fires only on commit.
   */
  publish(trx: Db, event: Omit<FeedNotification, 'eventId'>): Promise<number>;
  /** Every committed event from any instance, in commit order per instance. */
  subscribe(listener: (event: FeedNotification) => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createFeedBus(handle: DbHandle, onError: (err: Error) => void = () => {}): FeedBus {
  const listeners = new Set<(event: FeedNotification) => void>();
  let unlisten: (() => Promise<void>) | null = null;
  return {
    async publish(trx, event) {
      const row = await trx
        .insertInto('feed_events')
        .values({ kind: event.kind, post_id: event.postId, actor_id: event.actorId })
        .returning('id')
        .executeTakeFirstOrThrow();
      const payload: FeedNotification = { eventId: row.id, ...event };
      await sql`select pg_notify(${FEED_CHANNEL}, ${JSON.stringify(payload)})`.execute(trx);
      return row.id;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async start() {
      if (unlisten) return;
      unlisten = await handle.listen(FEED_CHANNEL, (raw) => {
        let event: FeedNotification;
        try {
          event = JSON.parse(raw) as FeedNotification;
        } catch (err) {
          onError(err as Error);
          return;
        }
        for (const l of listeners) l(event);
      });
    },
    async stop() {
      const u = unlisten;
      unlisten = null;
      if (u) await u();
      listeners.clear();
    },
  };
}
