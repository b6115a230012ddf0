import { describe, expect, it } from 'vitest';
import { createGate } from '../../tests/helpers/gate.js';
import { createFeedPageCache } from './page-cache.js';
import type { PostRow } from './repo.js';

const row = (id: number, likeCount = 0): PostRow => ({
  id,
  description: `post ${id}`,
  created_at: new Date(0),
  position_micros: id,
  like_count: likeCount,
  likes: [],
  liked_by_me: false,
});

/** A cache over a fake feed whose reads we count and can hold back; time and the LISTEN state are ours. */
function setup(opts: { maxPages?: number } = {}) {
  let clock = 0;
  let listening = true;
  let feed = [row(1)];
  let reads = 0;
  const gate = createGate();
  const cache = createFeedPageCache<PostRow[]>({ listening: () => listening, ttlMs: 2_000, maxPages: opts.maxPages, now: () => clock });
  const load = async () => {
    reads += 1;
    const snapshot = feed; // what the database answers is fixed when the query runs
    await gate.passed();
    return snapshot;
  };
  return {
    cache,
    read: (key = 'first') => cache.rows(key, load),
    reads: () => reads,
    change: (rows: PostRow[]) => {
      feed = rows;
    },
    advance: (ms: number) => {
      clock += ms;
    },
    setListening: (on: boolean) => {
      listening = on;
    },
    hold: gate.hold,
  };
}

describe('feed page cache', () => {
  it('reads a page once, then answers from memory until it is evicted', async () => {
    const t = setup();
    expect(await t.read()).toEqual([row(1)]);
    expect(await t.read()).toEqual([row(1)]);
    expect(t.reads()).toBe(1);
    t.change([row(2), row(1)]);
    t.cache.evict();
    expect(await t.read()).toEqual([row(2), row(1)]);
    expect(t.reads()).toBe(2);
  });

  it('reads the page again after its TTL, even when no change was announced', async () => {
    const t = setup();
    await t.read();
    t.change([row(3)]);
    t.advance(1_999);
    expect(await t.read()).toEqual([row(1)]);
    t.advance(1);
    expect(await t.read()).toEqual([row(3)]);
    expect(t.reads()).toBe(2);
  });

  it('does not keep a page read before an eviction that happened while it was in flight', async () => {
    const t = setup();
    const release = t.hold();
    const early = t.read(); // its query saw the old feed
    t.change([row(4)]);
    t.cache.evict(); // the change committed while that read was on its way
    release();
    expect(await early).toEqual([row(1)]);
    expect(await t.read()).toEqual([row(4)]);
    expect(t.cache.size()).toBe(1);
  });

  it('makes readers that arrive together share one database read, but not across an eviction', async () => {
    const t = setup();
    const release = t.hold();
    const both = [t.read(), t.read()];
    expect(t.reads()).toBe(1);
    t.cache.evict();
    const after = t.read();
    expect(t.reads()).toBe(2);
    release();
    await Promise.all([...both, after]);
  });

  it('is bypassed, and emptied, while the instance cannot hear notifications', async () => {
    const t = setup();
    await t.read();
    t.setListening(false);
    t.change([row(5)]);
    expect(await t.read()).toEqual([row(5)]);
    expect(await t.read()).toEqual([row(5)]);
    expect(t.reads()).toBe(3);
    expect(t.cache.size()).toBe(0);
    t.setListening(true);
    await t.read();
    await t.read();
    expect(t.reads()).toBe(4);
  });

  it('keeps at most maxPages pages, dropping the oldest', async () => {
    const t = setup({ maxPages: 2 });
    await t.read('a');
    await t.read('b');
    await t.read('c');
    expect(t.cache.size()).toBe(2);
    await t.read('a');
    expect(t.reads()).toBe(4);
  });

  it('does not keep a failed read', async () => {
    const t = setup();
    const cache = t.cache;
    await expect(cache.rows('x', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(cache.size()).toBe(0);
    expect(await t.read('x')).toEqual([row(1)]);
  });
});
