import { sql } from 'kysely';

/**
 * How a feed event is logged and announced, in SQL: the feed_events row
 * every catch-up reads, and the NOTIFY every instance's bus hears
 * (bus.ts). Used by the bus's publish() and by writes that log their
 * event in their own statement (a like toggle: feed/repo.ts).
 */

export const FEED_CHANNEL = 'poshan_feed';

/**
 * A transaction-scoped advisory lock (its key is 'poshan' in ASCII) that
 * orders event ids across every instance until the transaction ends:
 * feedEventTail takes it in the statement that draws the event's id, before
 * the id is drawn, so ids are handed out in commit order and "every event
 * after id N" is a complete catch-up. It spans only the event row, its NOTIFY and the commit
 * (Postgres serialises the commits of notifying transactions anyway); the
 * write itself is ordered by the row lock of the post it changes, taken
 * earlier, so writes to different posts run in parallel. Lock order is always
 * post row, then this lock.
 */
export const FEED_WRITE_LOCK = 0x706f7368616e;

/**
 * The end of a statement that logs a feed event and announces it: the CTEs
 * `feed_event_lock`, `feed_event` (the logged row) and `feed_event_sent` (its
 * id, once NOTIFY is queued), reading the event from a CTE the statement
 * defines before them, `feed_event_source (kind, post_id, actor_id,
 * like_count, liked)`, of one row or none (no event). The statement then
 * selects from feed_event_sent. The lock (FEED_WRITE_LOCK) is taken only
 * when there is an event, after everything the source depends on (a post's
 * row lock first), and before the id is drawn. `at` is the publish time the
 * notification carries (epoch ms, for the fan-out latency metric).
 * The payload is the event as FeedNotification: null likeCount and liked
 * are left out, a null actorId is kept.
 */
export function feedEventTail(at: number) {
  return sql`feed_event_lock as (
      select pg_advisory_xact_lock(${FEED_WRITE_LOCK}::int8) from feed_event_source
    ), feed_event as (
      insert into feed_events (kind, post_id, actor_id, like_count, liked, created_at)
      -- the moment it was written (under the lock), not when the transaction began
      select s.kind, s.post_id, s.actor_id, s.like_count, s.liked, clock_timestamp()
      from feed_event_source s, feed_event_lock
      returning id, kind, post_id, actor_id, like_count, liked
    ), feed_event_sent as (
      select id, pg_notify(${FEED_CHANNEL}, (
        jsonb_build_object('eventId', id, 'kind', kind, 'postId', post_id, 'actorId', actor_id)
        || jsonb_strip_nulls(jsonb_build_object('likeCount', like_count, 'liked', liked))
        || jsonb_build_object('at', ${at}::int8)
      )::text) as sent
      from feed_event
    )`;
}
