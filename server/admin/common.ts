import { z } from 'zod';
import { idField, INT32_MAX } from '../validation.js';

/**
 * Pieces every console list and form shares. zod only (the React screens
 * import this file too).
 */

export const ADMIN_PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_ADMIN_PAGE_SIZE = 25;
/** Far beyond any real list; keeps OFFSET arithmetic sane for absurd input. */
const MAX_PAGE = 100_000;

const pageSizeMessage = `pageSize must be one of ${ADMIN_PAGE_SIZES.join(', ')}`;

/** Zero-based pages, a bounded page size: every console list is paged on the server. */
export const pageInput = z.object({
  page: z
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(0, 'page must be 0 or more (pages start at 0)')
    .max(MAX_PAGE, `page must be at most ${MAX_PAGE}`)
    .default(0),
  pageSize: z
    .number({ error: pageSizeMessage })
    .max(INT32_MAX, pageSizeMessage)
    .refine((n) => (ADMIN_PAGE_SIZES as readonly number[]).includes(n), pageSizeMessage)
    .default(DEFAULT_ADMIN_PAGE_SIZE),
});
export type PageInput = z.infer<typeof pageInput>;

/** One page of a list and the total, for the pager. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });
export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };

export const byId = z.object({ id: idField('id') });

/** An optional free-text field: blank means "none" (null). */
export { optionalText } from '../validation.js';

export const messageResult = z.object({ message: z.string() });
