import { describe, expect, it } from 'vitest';
import { checkedItem, checkFeedPage } from './checked-items.js';
import type { PostRow } from './repo.js';
import { toFeedItem } from './service.js';

const row = (id: number, likes: number[]): PostRow => ({
  id,
  description: `Post ${id}`,
  created_at: new Date('2026-11-24T06:00:00Z'),
  position_micros: 1_795_500_000_000_000 + id,
  like_count: likes.length,
  likes,
  liked_by_me: false,
});

describe('feed items checked once per kept row', () => {
  it('gives every viewer of a row the same frozen item for liked and for not liked', () => {
    const kept = row(1, [7, 9]);
    const liked = checkedItem(kept, true, toFeedItem);
    const notLiked = checkedItem(kept, false, toFeedItem);
    expect(checkedItem(kept, true, toFeedItem)).toBe(liked);
    expect(checkedItem(kept, false, toFeedItem)).toBe(notLiked);
    expect([liked.likedByMe, notLiked.likedByMe]).toEqual([true, false]);
    expect(Object.isFrozen(liked) && Object.isFrozen(liked.likes) && Object.isFrozen(liked.author)).toBe(true);
    // A fresh row (a new read after an eviction) gets items of its own.
    expect(checkedItem(row(1, [7, 9]), true, toFeedItem)).not.toBe(liked);
  });

  it('checks an item once, stripping what feedItem does not name, and refuses a bad one', () => {
    const leaky = (r: PostRow, liked: boolean) => ({ ...toFeedItem(r, liked), passwordHash: 'x' });
    expect(checkedItem(row(2, []), false, leaky)).not.toHaveProperty('passwordHash');
    expect(() => checkedItem(row(3, []), false, (r, liked) => ({ ...toFeedItem(r, liked), likeCount: 'many' as never }))).toThrow();
  });

  it('passes a page of checked items as it is, and checks any other page in full', () => {
    const items = [checkedItem(row(4, [1]), false, toFeedItem)];
    const page = checkFeedPage({ items, nextCursor: null, extra: 'dropped' });
    expect(page).toEqual({ items, nextCursor: null });
    expect(page.items[0]).toBe(items[0]);
    const unchecked = { ...toFeedItem(row(5, []), false), secret: 'x' };
    expect(checkFeedPage({ items: [unchecked], nextCursor: 'c' }).items[0]).not.toHaveProperty('secret');
    expect(() => checkFeedPage({ items: [{ ...unchecked, id: 'five' }], nextCursor: null })).toThrow();
    expect(() => checkFeedPage({ items, nextCursor: 5 })).toThrow();
  });
});
