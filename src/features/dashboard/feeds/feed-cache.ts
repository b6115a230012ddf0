import type { InfiniteData } from '@tanstack/react-query';
import type { FeedEvent, FeedItem } from '../../../../server/feed/schema';
import type { RouterOutputs } from '../../../lib/router-types';

/**
 * Pure updates of the loaded feed pages (react-query's infinite data), so a
 * live event or a like changes exactly one post without refetching the feed.
 */
export type FeedPage = RouterOutputs['feed']['list'];
export type FeedPages = InfiniteData<FeedPage, unknown>;

const mapItems = (data: FeedPages, fn: (items: readonly FeedItem[], pageIndex: number) => readonly FeedItem[]): FeedPages => {
  let changed = false;
  const pages = data.pages.map((page, i) => {
    const items = fn(page.items, i);
    if (items === page.items) return page;
    changed = true;
    return { ...page, items };
  });
  return changed ? { ...data, pages } : data;
};

export function hasPost(data: FeedPages, postId: number): boolean {
  return data.pages.some((p) => p.items.some((item) => item.id === postId));
}

/** A post's new like count; the viewer's own state and id list only when known. */
export function applyLike(
  data: FeedPages,
  postId: number,
  likeCount: number,
  likedByMe: boolean | undefined,
  viewerId: number | null,
): FeedPages {
  return mapItems(data, (items) => {
    const i = items.findIndex((item) => item.id === postId);
    if (i < 0) return items;
    const post = items[i]!;
    let likes = post.likes;
    if (likedByMe !== undefined && viewerId !== null) {
      const listed = likes.includes(viewerId);
      if (likedByMe && !listed) likes = [...likes, viewerId].sort((a, b) => a - b);
      if (!likedByMe && listed) likes = likes.filter((id) => id !== viewerId);
    }
    const next: FeedItem = { ...post, likeCount, likes, likedByMe: likedByMe ?? post.likedByMe };
    if (next.likeCount === post.likeCount && next.likedByMe === post.likedByMe && likes === post.likes) return items;
    const copy = items.slice();
    copy[i] = next;
    return copy;
  });
}

const newerFirst = (a: FeedItem, b: FeedItem) => {
  const t = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  return t !== 0 ? t : b.id - a.id;
};

/**
 * A created or edited post. An edit replaces the post where it is; a new
 * post goes to its place among the loaded posts (the top, for a fresh one).
 * A post older than everything loaded is left for paging to bring in.
 */
export function upsertPost(data: FeedPages, post: FeedItem): FeedPages {
  if (hasPost(data, post.id)) {
    return mapItems(data, (items) =>
      items.some((item) => item.id === post.id) ? items.map((item) => (item.id === post.id ? post : item)) : items,
    );
  }
  const lastPage = data.pages[data.pages.length - 1];
  const everythingLoaded = !lastPage || lastPage.nextCursor === null;
  const oldestLoaded = data.pages.flatMap((p) => p.items).at(-1);
  if (oldestLoaded && !everythingLoaded && newerFirst(post, oldestLoaded) > 0) return data;
  // Insert into the first page whose posts it precedes (or the last page).
  let placed = false;
  return mapItems(data, (items, pageIndex) => {
    if (placed) return items;
    const at = items.findIndex((item) => newerFirst(post, item) < 0);
    if (at >= 0) {
      placed = true;
      return [...items.slice(0, at), post, ...items.slice(at)];
    }
    if (pageIndex === data.pages.length - 1) {
      placed = true;
      return [...items, post];
    }
    return items;
  });
}

export function removePost(data: FeedPages, postId: number): FeedPages {
  return mapItems(data, (items) => (items.some((item) => item.id === postId) ? items.filter((item) => item.id !== postId) : items));
}

/** What an event does to the loaded feed: new pages, or 'refetch' when events were missed. */
export function applyFeedEvent(data: FeedPages, event: FeedEvent, viewerId: number | null): FeedPages | 'refetch' {
  switch (event.kind) {
    case 'ready':
      return data;
    case 'resync':
      return 'refetch';
    case 'post.created':
    case 'post.updated':
      return upsertPost(data, event.post);
    case 'post.deleted':
      return removePost(data, event.postId);
    case 'like.changed':
      return applyLike(data, event.postId, event.likeCount, event.likedByMe, viewerId);
  }
}
