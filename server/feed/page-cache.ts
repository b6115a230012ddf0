import type { KeptRows } from './checked-items.js';

/** Notified by the database when a transaction that changed posts or likes commits (migration 2026-11-24T0300). */
export const FEED_CHANGED_CHANNEL = 'poshan_feed_changed';
/** How long a page is kept at most; feed events evict it long before, this bounds what no event announces. */
export const FEED_PAGE_TTL_MS = 2_000;
/** Distinct pages kept (first pages and the cursors clients page through), the oldest evicted first. */
export const FEED_PAGES_MAX = 64;

export type FeedPageCache = ReturnType<typeof createFeedPageCache<KeptRows>>;

type Entry<Page> = { rows: Page; until: number };

/**
 * Feed pages as every viewer sees them (without the viewer's own likes, which
 * listFeed adds), kept in memory between changes to the feed: a read then costs
 * no database round trip and no parsing of the likes arrays, which is most of
 * what a feed read costs.
 *
 * Evicted three ways: the feed service evicts it when its write transaction
 * ends, so a writer reads its own write on its instance; each instance evicts
 * it on every feed event it receives, before any socket is told of the event,
 * so a client told of a change reads it everywhere; and a trigger notifies
 * FEED_CHANGED_CHANNEL on the commit of any change to posts or likes, whoever
 * made it (a cascade from a removed account, an operator's SQL), so every
 * instance drops it within the notification's flight. It is not used while
 * the instance cannot hear notifications (a LISTEN connection is down), and
 * a page older than the TTL is read again whatever happens.
 */
export function createFeedPageCache<Page = KeptRows>(opts: {
  listening: () => boolean;
  ttlMs?: number;
  maxPages?: number;
  now?: () => number;
}) {
  const ttlMs = opts.ttlMs ?? FEED_PAGE_TTL_MS;
  const maxPages = opts.maxPages ?? FEED_PAGES_MAX;
  const now = opts.now ?? Date.now;
  const pages = new Map<string, Entry<Page>>();
  /** One database read per page at a time, however many readers arrive together (after an eviction, say). */
  const loading = new Map<string, Promise<Page>>();
  /** Bumped by every eviction: a read that began before it may have seen the old feed, so it is not kept. */
  let generation = 0;

  const evict = () => {
    generation += 1;
    pages.clear();
    loading.clear();
  };

  return {
    /** The page under `key`, from memory or from `load` (which must not depend on the viewer). */
    rows(key: string, load: () => Promise<Page>): Promise<Page> {
      if (!opts.listening()) {
        if (pages.size || loading.size) evict();
        return load();
      }
      const hit = pages.get(key);
      if (hit && hit.until > now()) return Promise.resolve(hit.rows);
      if (hit) pages.delete(key);
      const pending = loading.get(key);
      if (pending) return pending;
      const startedAt = generation;
      const read = load().then((rows) => {
        if (generation === startedAt && opts.listening()) {
          pages.set(key, { rows, until: now() + ttlMs });
          for (const oldest of pages.keys()) {
            if (pages.size <= maxPages) break;
            pages.delete(oldest);
          }
        }
        return rows;
      });
      loading.set(key, read);
      const done = () => {
        if (loading.get(key) === read) loading.delete(key);
      };
      read.then(done, done);
      return read;
    },
    /** Forget every page: the feed changed (or may have). */
    evict,
    /** Pages held now (for tests). */
    size: () => pages.size,
  };
}
