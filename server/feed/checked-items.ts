import type { PostRow } from './repo.js';
import type { z } from 'zod';
import { keepJsonText } from '../http/json-text.js';
import { type FeedItem, feedItem, feedPage } from './schema.js';

type FeedPage = z.output<typeof feedPage>;

/**
 * feed.list's output check, done once per kept row rather than on every read
 * (issue 10): a kept page (page-cache.ts) hands the same rows to every viewer,
 * and each row has only two items to give, liked by the viewer or not. Each is
 * made, checked against `feedItem` (which also strips anything it does not
 * name) and frozen the first time it is asked for, then given out as it is.
 * A page of such items passes `checkFeedPage` without walking 20 posts × 100
 * liker ids again; anything else is checked in full. Their JSON text is kept
 * too (http/json-text.ts), so a REST answer splices it in.
 */
const checked = new WeakSet<FeedItem>();
const itemsOfRow = new WeakMap<PostRow, [notLiked?: FeedItem, liked?: FeedItem]>();

type Build = (row: PostRow, likedByMe: boolean) => FeedItem;

function frozen(item: FeedItem): FeedItem {
  Object.freeze(item.likes);
  Object.freeze(item.author);
  return Object.freeze(item);
}

/** The row's item for a viewer who likes it or not, checked and frozen once per row. */
export function checkedItem(row: PostRow, likedByMe: boolean, build: Build): FeedItem {
  let pair = itemsOfRow.get(row);
  if (!pair) {
    pair = [];
    itemsOfRow.set(row, pair);
  }
  const at = likedByMe ? 1 : 0;
  let item = pair[at];
  if (!item) {
    item = keepJsonText(frozen(feedItem.parse(build(row, likedByMe))));
    checked.add(item);
    pair[at] = item;
  }
  return item;
}

/** feed.list's output parser: `feedPage`, with items from checkedItem taken as already checked. */
export function checkFeedPage(value: unknown): FeedPage {
  const page = value as Partial<FeedPage> | null;
  if (
    page &&
    Array.isArray(page.items) &&
    page.items.every((item) => checked.has(item)) &&
    (page.nextCursor === null || typeof page.nextCursor === 'string')
  ) {
    return { items: page.items, nextCursor: page.nextCursor };
  }
  return feedPage.parse(value);
}
