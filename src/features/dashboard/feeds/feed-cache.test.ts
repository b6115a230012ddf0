import { describe, expect, it } from 'vitest';
import type { FeedItem } from '../../../../server/feed/schema';
import { applyFeedEvent, applyLike, type FeedPages, removePost, upsertPost } from './feed-cache';

const post = (id: number, minutesAgo: number, extra: Partial<FeedItem> = {}): FeedItem => ({
  id,
  desc: `Post ${id}`,
  createdAt: new Date(Date.UTC(2026, 10, 22, 12, 0) - minutesAgo * 60_000).toISOString(),
  likes: [],
  likeCount: 0,
  likedByMe: false,
  author: { name: 'Poshan Dietitians' },
  ...extra,
});

const pages = (...lists: [FeedItem[], string | null][]): FeedPages => ({
  pages: lists.map(([items, nextCursor]) => ({ items, nextCursor })),
  pageParams: lists.map((_, i) => (i === 0 ? null : `c${i}`)),
});

const ids = (data: FeedPages) => data.pages.map((p) => p.items.map((i) => i.id));

describe('applyLike', () => {
  it("sets the count and, when known, the viewer's own like", () => {
    const data = pages([[post(3, 1), post(2, 5, { likeCount: 1, likes: [9] })], null]);
    const mine = applyLike(data, 2, 2, true, 7);
    expect(mine.pages[0]!.items[1]).toMatchObject({ likeCount: 2, likedByMe: true, likes: [7, 9] });
    const unliked = applyLike(mine, 2, 1, false, 7);
    expect(unliked.pages[0]!.items[1]).toMatchObject({ likeCount: 1, likedByMe: false, likes: [9] });
  });

  it("keeps the viewer's state when another person's like changes the count", () => {
    const data = pages([[post(2, 5, { likeCount: 1, likedByMe: true, likes: [7] })], null]);
    const next = applyLike(data, 2, 2, undefined, 7);
    expect(next.pages[0]!.items[0]).toMatchObject({ likeCount: 2, likedByMe: true, likes: [7] });
  });

  it('returns the same object when nothing changes (no re-render)', () => {
    const data = pages([[post(2, 5, { likeCount: 1 })], null]);
    expect(applyLike(data, 2, 1, undefined, 7)).toBe(data);
    expect(applyLike(data, 99, 4, true, 7)).toBe(data);
  });
});

describe('upsertPost', () => {
  it('puts a new post on top', () => {
    const data = pages([[post(2, 5), post(1, 10)], 'c1'], [[post(0, 20)], null]);
    expect(ids(upsertPost(data, post(3, 0)))).toEqual([[3, 2, 1], [0]]);
  });

  it('replaces an edited post in place', () => {
    const data = pages([[post(2, 5), post(1, 10)], null]);
    const edited = upsertPost(data, post(1, 10, { desc: 'Edited\nwith a line break' }));
    expect(ids(edited)).toEqual([[2, 1]]);
    expect(edited.pages[0]!.items[1]!.desc).toBe('Edited\nwith a line break');
  });

  it('fills an empty feed', () => {
    expect(ids(upsertPost(pages([[], null]), post(5, 0)))).toEqual([[5]]);
  });

  it('leaves a post older than every loaded one to paging', () => {
    const data = pages([[post(5, 1), post(4, 2)], 'c1']);
    expect(upsertPost(data, post(1, 100))).toBe(data);
    // ...unless the whole feed is loaded: then it belongs at the end.
    expect(ids(upsertPost(pages([[post(5, 1)], null]), post(1, 100)))).toEqual([[5, 1]]);
  });
});

describe('removePost', () => {
  it('drops the post from whichever page holds it', () => {
    const data = pages([[post(3, 1), post(2, 2)], 'c1'], [[post(1, 3)], null]);
    expect(ids(removePost(data, 1))).toEqual([[3, 2], []]);
    expect(removePost(data, 42)).toBe(data);
  });
});

describe('applyFeedEvent', () => {
  const data = pages([[post(2, 5, { likeCount: 3 })], null]);

  it('asks for a refetch on resync and ignores ready', () => {
    expect(applyFeedEvent(data, { kind: 'resync' }, 7)).toBe('refetch');
    expect(applyFeedEvent(data, { kind: 'ready' }, 7)).toBe(data);
  });

  it('applies each kind of change', () => {
    expect(ids(applyFeedEvent(data, { kind: 'post.created', postId: 3, post: post(3, 0) }, 7) as FeedPages)).toEqual([[3, 2]]);
    expect(ids(applyFeedEvent(data, { kind: 'post.deleted', postId: 2 }, 7) as FeedPages)).toEqual([[]]);
    const liked = applyFeedEvent(data, { kind: 'like.changed', postId: 2, likeCount: 4 }, 7) as FeedPages;
    expect(liked.pages[0]!.items[0]!.likeCount).toBe(4);
    const edited = applyFeedEvent(
      data,
      { kind: 'post.updated', postId: 2, post: post(2, 5, { desc: 'new text', likeCount: 3 }) },
      7,
    ) as FeedPages;
    expect(edited.pages[0]!.items[0]!.desc).toBe('new text');
  });
});
