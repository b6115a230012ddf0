import { type Prepared, type PreparedList, isPrepared, prepare, prepareList } from '../http/prepared-json.js';
import type { PostRow } from './repo.js';
import { type FeedItem, feedItem, feedPage } from './schema.js';

/**
 * feed.list's output check, done once per kept row rather than on every read:
 * a kept page (page-cache.ts) hands the same rows to every viewer, and each
 * row has only two items to give, liked by the viewer or not. Each is made,
 * checked against `feedItem` (which also strips anything it does not name)
 * and prepared (frozen, its JSON attached: http/prepared-json.ts) the first
 * time it is asked for, then given out as it is. Everything made for a kept
 * page lives on its `KeptRows`, dropped with it.
 */
export type CheckedItem = Prepared<FeedItem>;

/** A kept page's rows with the items and lists made from them so far. */
export type KeptRows = {
  readonly rows: readonly PostRow[];
  /** Per row: its item for a viewer who does not like it [0] and one who does [1]. */
  readonly items: [notLiked?: CheckedItem, liked?: CheckedItem][];
  /** Prepared lists by pattern of likes (see checkedItems). */
  readonly lists: Map<string, PreparedList<FeedItem>>;
};

export const keepRows = (rows: readonly PostRow[]): KeptRows => ({ rows, items: rows.map(() => []), lists: new Map() });

/** A page of feed.list: every item checked; the list itself prepared when it is one viewers share. */
export type CheckedFeedPage = { items: PreparedList<FeedItem> | readonly CheckedItem[]; nextCursor: string | null };

type Build = (row: PostRow, likedByMe: boolean) => FeedItem;

function checked(item: FeedItem): CheckedItem {
  Object.freeze(item.likes);
  Object.freeze(item.author);
  return prepare(item);
}

/** Row `i`'s item for a viewer who likes it or not, checked and prepared once per kept row. */
export function checkedItem(kept: KeptRows, i: number, likedByMe: boolean, build: Build): CheckedItem {
  const pair = kept.items[i]!;
  const at = likedByMe ? 1 : 0;
  let item = pair[at];
  if (!item) {
    item = checked(feedItem.parse(build(kept.rows[i]!, likedByMe)));
    pair[at] = item;
  }
  return item;
}

/** Kept lists per pattern of one kept page at most; a viewer with another pattern gets a list of their own. */
export const MAX_KEPT_LISTS = 16;

/**
 * The first rows' items for one viewer, `likedByMe[i]` for row i. Viewers
 * who like the same posts of a kept page get the same prepared list (its JSON
 * joined from its items'): most viewers of a page share one of a few patterns
 * (none liked, all liked), and their answers are then the same bytes. At most
 * MAX_KEPT_LISTS patterns per page are kept; beyond them a list is made per
 * read, of the same prepared items.
 */
export function checkedItems(kept: KeptRows, likedByMe: readonly boolean[], build: Build): CheckedFeedPage['items'] {
  let pattern = `${likedByMe.length}:`;
  for (const liked of likedByMe) pattern += liked ? '1' : '0';
  const shared = kept.lists.get(pattern);
  if (shared) return shared;
  const items = likedByMe.map((liked, i) => checkedItem(kept, i, liked, build));
  if (kept.lists.size >= MAX_KEPT_LISTS) return items;
  const list = prepareList(items);
  kept.lists.set(pattern, list);
  return list;
}

/** What feed.list answers: read-only items (a viewer's page shares prepared items with every other viewer's). */
export type FeedPage = { readonly items: readonly FeedItem[]; readonly nextCursor: string | null };

/**
 * feed.list's output check: prepared items (made only by checkedItem) pass as
 * they are; anything else that gets here at run time is checked against
 * `feedPage` in full.
 */
export function checkFeedPage(value: unknown): FeedPage {
  const page = value as Partial<CheckedFeedPage> | null;
  const items: unknown = page?.items;
  if (
    page &&
    Array.isArray(items) &&
    (isPrepared(items) || items.every(isPrepared)) &&
    (page.nextCursor === null || typeof page.nextCursor === 'string')
  ) {
    return { items: page.items as CheckedFeedPage['items'], nextCursor: page.nextCursor };
  }
  return feedPage.parse(value);
}

/**
 * feed.list's output parser, typed for tRPC as taking a CheckedFeedPage (so
 * the procedure must return one: a handler that maps or copies the items gets
 * a type error) and giving callers a read-only FeedPage.
 */
export const feedPageOutput = { parse: checkFeedPage } as {
  parse(value: unknown): FeedPage;
  readonly _input: CheckedFeedPage;
  readonly _output: FeedPage;
};
