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

/** Kept lists per pattern of one kept row list at most; a viewer with another pattern gets a list of their own. */
export const MAX_KEPT_LISTS = 16;
const listsOfRows = new WeakMap<readonly PostRow[], Map<string, FeedItem[]>>();
const checkedLists = new WeakSet<FeedItem[]>();

/**
 * The first rows' items for one viewer, `likedByMe[i]` for rows[i].
 * Viewers who like the same posts of a kept row list get the same frozen
 * list, with its JSON kept (made from its items' kept bytes): most viewers of
 * a page share one of a few patterns (none liked, all liked), and their
 * answers are then the same bytes. At most MAX_KEPT_LISTS patterns per row
 * list are kept; beyond them a list is made per read, of the same kept items.
 */
export function checkedItems(rows: readonly PostRow[], likedByMe: readonly boolean[], build: Build): FeedItem[] {
  let pattern = `${likedByMe.length}:`;
  for (const liked of likedByMe) pattern += liked ? '1' : '0';
  let lists = listsOfRows.get(rows);
  const kept = lists?.get(pattern);
  if (kept) return kept;
  const items = likedByMe.map((liked, i) => checkedItem(rows[i]!, liked, build));
  if (!lists) {
    lists = new Map();
    listsOfRows.set(rows, lists);
  }
  if (lists.size >= MAX_KEPT_LISTS) return items;
  // Frozen like its items (a change throws in strict mode); typed mutable as the items are.
  const list = keepJsonText(Object.freeze(items) as FeedItem[]);
  checkedLists.add(list);
  lists.set(pattern, list);
  return list;
}

/** feed.list's output parser: `feedPage`, with items from checkedItem (or a list from checkedItems) taken as already checked. */
export function checkFeedPage(value: unknown): FeedPage {
  const page = value as Partial<FeedPage> | null;
  if (
    page &&
    Array.isArray(page.items) &&
    (checkedLists.has(page.items) || page.items.every((item) => checked.has(item))) &&
    (page.nextCursor === null || typeof page.nextCursor === 'string')
  ) {
    return { items: page.items, nextCursor: page.nextCursor };
  }
  return feedPage.parse(value);
}
