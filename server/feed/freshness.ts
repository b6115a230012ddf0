import type { DbHandle } from '../db/index.js';
import type { FeedBus } from './bus.js';
import { FEED_CHANGED_CHANNEL, type FeedPageCache } from './page-cache.js';

/**
 * The one home of the feed page cache's freshness (page-cache.ts keeps
 * pages; this says what forgets them). Nobody may read a page older than a
 * change they could know of. Every way the feed can change is covered by one
 * of these sources, each with its test; a new way to change posts or likes
 * must name the source that covers it here, or add one.
 *
 * Checklist for a change to the feed's tables or writes:
 * - a write through the feed service runs inside `feedWrite` (service.ts):  → ownWrite
 * - it logs a feed event (feedBus.publish, or feedEventTail in its statement): → feedEvent
 * - a statement that logs its event sets `poshan.feed_event_follows` (repo.ts), so the
 *   trigger stays quiet for it and the event alone evicts:                  → feedEvent
 * - anything else that writes feed_posts or feed_likes (a cascade, SQL):     → changeTrigger
 */
export const FEED_PAGE_EVICTIONS = {
  /** The writer's own instance, when its write ends (committed, failed, or unknown): it reads its own write. */
  ownWrite: 'service.ts feedWrite → feedPages.evict()',
  /** Every feed event this instance hears, from any instance, before any socket is told of it. */
  feedEvent: 'feedBus.subscribe(feedPages.evict), registered before any subscriber',
  /**
   * The statement trigger on feed_posts and feed_likes (migrations 2026-11-24T0300 and T0600):
   * NOTIFY poshan_feed_changed on commit of a change that logs no event.
   */
  changeTrigger: `LISTEN ${FEED_CHANGED_CHANNEL}`,
  /** The LISTEN connection dropped: notifications may be lost, so pages are not used while it is down and are dropped when it is back. */
  listenGap: 'page-cache.ts listening(); the LISTEN reconnect callback',
  /** What nothing above announces (a clock jump, a bug) lives at most this long. */
  ttl: 'FEED_PAGE_TTL_MS',
} as const;

export type FeedPageEviction = keyof typeof FEED_PAGE_EVICTIONS;

/** Wires feedEvent, changeTrigger and listenGap for one instance (ownWrite is in the service; ttl in the cache). */
export async function keepFeedPagesFresh(feedPages: FeedPageCache, feedBus: FeedBus, dbHandle: DbHandle): Promise<void> {
  // feedEvent: subscribed before any socket, so a page is evicted before a client hears of the change and reads again.
  feedBus.subscribe(feedPages.evict);
  // changeTrigger, and listenGap: whatever was missed while the connection was down.
  await dbHandle.listen(FEED_CHANGED_CHANNEL, feedPages.evict, feedPages.evict);
}
