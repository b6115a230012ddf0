import { describe, expect, it } from 'vitest';
import { jsonChunks } from '../http/prepared-json.js';
import { initTRPC } from '@trpc/server';
import { MAX_KEPT_LISTS, checkedItem, checkedItems, checkFeedPage, feedPageOutput, keepRows } from './checked-items.js';
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

/** A kept page of one row. */
const one = (r: PostRow) => keepRows([r]);

describe('feed items checked once per kept row', () => {
  it('gives every viewer of a row the same frozen item for liked and for not liked', () => {
    const kept = one(row(1, [7, 9]));
    const liked = checkedItem(kept, 0, true, toFeedItem);
    const notLiked = checkedItem(kept, 0, false, toFeedItem);
    expect(checkedItem(kept, 0, true, toFeedItem)).toBe(liked);
    expect(checkedItem(kept, 0, false, toFeedItem)).toBe(notLiked);
    expect([liked.likedByMe, notLiked.likedByMe]).toEqual([true, false]);
    expect(Object.isFrozen(liked) && Object.isFrozen(liked.likes) && Object.isFrozen(liked.author)).toBe(true);
    expect(() => {
      // @ts-expect-error a checked item is read-only: changing it is a type error (and throws, frozen)
      liked.likeCount = 5;
    }).toThrow(TypeError);
    // A fresh row (a new read after an eviction) gets items of its own.
    expect(checkedItem(one(row(1, [7, 9])), 0, true, toFeedItem)).not.toBe(liked);
  });

  it('checks an item once, stripping what feedItem does not name, and refuses a bad one', () => {
    const leaky = (r: PostRow, liked: boolean) => ({ ...toFeedItem(r, liked), passwordHash: 'x' });
    expect(checkedItem(one(row(2, [])), 0, false, leaky)).not.toHaveProperty('passwordHash');
    expect(() => checkedItem(one(row(3, [])), 0, false, (r, liked) => ({ ...toFeedItem(r, liked), likeCount: 'many' as never }))).toThrow();
  });

  it('passes a page of checked items as it is, and checks any other page in full', () => {
    const items = [checkedItem(one(row(4, [1])), 0, false, toFeedItem)];
    const page = checkFeedPage({ items, nextCursor: null, extra: 'dropped' });
    expect(page).toEqual({ items, nextCursor: null });
    expect(page.items[0]).toBe(items[0]);
    const unchecked = { ...toFeedItem(row(5, []), false), secret: 'x' };
    expect(checkFeedPage({ items: [unchecked], nextCursor: 'c' }).items[0]).not.toHaveProperty('secret');
    expect(() => checkFeedPage({ items: [{ ...unchecked, id: 'five' }], nextCursor: null })).toThrow();
    expect(() => checkFeedPage({ items, nextCursor: 5 })).toThrow();
  });

  it('gives viewers who like the same posts of a kept page the same frozen list, with its JSON prepared', () => {
    const rows = [row(10, [1, 2]), row(11, [2]), row(12, [])];
    const likes = (viewer: number, count = 3) => rows.slice(0, count).map((r) => r.likes.includes(viewer));
    const kept = keepRows(rows);
    const viewer2 = checkedItems(kept, likes(2), toFeedItem);
    expect(checkedItems(kept, likes(2), toFeedItem)).toBe(viewer2);
    expect(viewer2.map((item) => item.likedByMe)).toEqual([true, true, false]);
    const viewer1 = checkedItems(kept, likes(1), toFeedItem);
    expect(viewer1).not.toBe(viewer2);
    expect(viewer1.map((item) => item.likedByMe)).toEqual([true, false, false]);
    expect(viewer1[0]).toBe(viewer2[0]); // the same kept item inside
    expect(checkedItems(kept, likes(2, 2), toFeedItem)).toHaveLength(2); // another page length, another list
    expect(Object.isFrozen(viewer2)).toBe(true);
    const json = jsonChunks(viewer2);
    expect(Array.isArray(json) && json.length === 1 && json[0]!.toString('utf8')).toBe(JSON.stringify(viewer2));
    expect(checkFeedPage({ items: viewer2, nextCursor: null }).items).toBe(viewer2);
  });

  it(`keeps at most ${MAX_KEPT_LISTS} lists per kept page; other viewers get lists of their own, as correct`, () => {
    const rows = Array.from({ length: 6 }, (_, i) => row(20 + i, []));
    const pattern = (bits: number) => rows.map((_, i) => ((bits >> i) & 1) === 1);
    const kept = keepRows(rows);
    for (let bits = 0; bits < MAX_KEPT_LISTS; bits++) checkedItems(kept, pattern(bits), toFeedItem);
    const beyond = checkedItems(kept, pattern(MAX_KEPT_LISTS), toFeedItem);
    expect(checkedItems(kept, pattern(MAX_KEPT_LISTS), toFeedItem)).not.toBe(beyond);
    expect(beyond.map((item) => item.likedByMe)).toEqual([false, false, false, false, true, false]);
    expect(checkedItems(kept, pattern(3), toFeedItem)).toBe(checkedItems(kept, pattern(3), toFeedItem));
    expect(checkFeedPage({ items: beyond, nextCursor: null }).items).toBe(beyond);
  });

  it('makes a procedure return checked items: items made anew are a type error, and callers get read-only items', async () => {
    const t = initTRPC.create();
    const kept = keepRows([row(30, [1])]);
    const procedures = t.router({
      checked: t.procedure.output(feedPageOutput).query(() => ({ items: checkedItems(kept, [true], toFeedItem), nextCursor: null })),
      // @ts-expect-error items made anew are not checked items
      remade: t.procedure.output(feedPageOutput).query(() => ({ items: kept.rows.map((r) => toFeedItem(r, true)), nextCursor: null })),
    });
    const page = await t.createCallerFactory(procedures)({}).checked();
    expect(page.items[0]?.likedByMe).toBe(true);
    // @ts-expect-error callers get read-only items
    expect(() => page.items.push(page.items[0]!)).toThrow(TypeError);
  });
});
