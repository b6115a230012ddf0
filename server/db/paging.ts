import type { SelectQueryBuilder } from 'kysely';

/** Zero-based page and its size (the console's `pageInput`). */
export type PageRequest = { page: number; pageSize: number };
/** One page of a list and the total, for the pager. */
export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };

/** A query with its FROM, joins and WHEREs but no column chosen yet (Kysely starts from an empty selection). */
type NoColumns = Record<never, never>;

/**
 * The one paged-list helper. `filtered` holds the FROM, the joins and every
 * WHERE of the list; the count query and the rows query are both built from
 * it, so a filter cannot reach one and miss the other. `select` adds the
 * columns and the order to the rows query.
 */
export async function pagedList<DB, TB extends keyof DB, O>(
  p: PageRequest,
  filtered: SelectQueryBuilder<DB, TB, NoColumns>,
  select: (q: SelectQueryBuilder<DB, TB, NoColumns>) => SelectQueryBuilder<DB, TB, O>,
): Promise<Page<O>> {
  const [items, total] = await Promise.all([
    select(filtered)
      .offset(p.page * p.pageSize)
      .limit(p.pageSize)
      .execute(),
    filtered.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst(),
  ]);
  // int8 is parsed to a number on both backends; Number() keeps it so if a parser is missing.
  return { items: items as O[], total: Number((total as { n?: unknown } | undefined)?.n ?? 0), page: p.page, pageSize: p.pageSize };
}

/** The same page with each row turned into what the caller answers. */
export const mapPage = <A, B>(page: Page<A>, to: (row: A) => B): Page<B> => ({ ...page, items: page.items.map(to) });

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
export const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
