import type { Page, PageInput } from './common.js';

export const offsetOf = (p: PageInput) => ({ offset: p.page * p.pageSize, limit: p.pageSize });

/** Runs a page query and its count together. */
export async function paged<T>(
  p: PageInput,
  rows: Promise<T[]>,
  count: Promise<{ n: number | string | bigint } | undefined>,
): Promise<Page<T>> {
  const [items, total] = await Promise.all([rows, count]);
  // int8 is parsed to a number on both backends; Number() keeps it so if a parser is missing.
  return { items, total: Number(total?.n ?? 0), page: p.page, pageSize: p.pageSize };
}

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
export const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
