import { z } from 'zod';

/**
 * Field builders shared by every schema (server and client forms), so each
 * rule and message of the product's forms is written once.
 */

/** The largest value of a Postgres `integer` column (every id and count here). */
export const INT32_MAX = 2_147_483_647;

/**
 * Characters a person cannot see or that change how the text around them is
 * shown: C0 and C1 controls and DEL (U+0085 is a line break to some
 * programs), the line and paragraph separators, bidirectional overrides,
 * embeddings, isolates and marks (a name that reads backwards, "Trojan
 * source"), zero-width spaces and joiners, the word joiner and the byte
 * order mark. Multi-line text may also hold tabs and line breaks.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters
const INVISIBLE = /[\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2060\u2066-\u2069\uFEFF]/u;
const INVISIBLE_EXCEPT_LINES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2060\u2066-\u2069\uFEFF]/u;
/**
 * Joiners that are part of the writing, not hidden: ZWJ and ZWNJ after a
 * letter or mark of a script without case (Devanagari half forms, Malayalam
 * chillus, which end a word, Persian) and before a letter, a mark, a space,
 * punctuation or the end.
 */
const SCRIPT_JOINER = /(?<=[\p{Lo}\p{M}])[\u200C\u200D](?=[\p{L}\p{M}\p{P}\s]|$)/gu;
/** ZWJ inside an emoji sequence (👨‍👩‍👧, 🏳️‍🌈), allowed in multi-line free text, where emoji are. */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic})/gu;

/** True when the text holds a character that cannot be shown as text (see INVISIBLE). */
export function hasInvisibleCharacters(text: string, opts: TextOptions = {}): boolean {
  let visible = text.replace(SCRIPT_JOINER, '');
  if (opts.multiline) visible = visible.replace(EMOJI_JOINER, '');
  return (opts.multiline ? INVISIBLE_EXCEPT_LINES : INVISIBLE).test(visible);
}

export type TextOptions = {
  /** Line breaks and tabs are allowed (notes, messages, replies); other control characters never are. */
  multiline?: boolean;
};

const labelOf = (required: string) => required.replace(/ is required$/, '');

/**
 * The base of every text input: a string without control characters. The
 * message names the field, so a caller knows what to fix.
 */
export const plainText = (label: string, opts: TextOptions = {}) =>
  z
    .string({ error: `${label} must be text` })
    .refine(
      (s) => !hasInvisibleCharacters(s, opts),
      opts.multiline
        ? `${label} can only contain text, line breaks and tabs (no invisible or direction-changing characters)`
        : `${label} cannot contain control, invisible or direction-changing characters`,
    );

/** A required text field: missing, null or blank → `required`. */
export const requiredText = (required: string, max = 2000, opts: TextOptions = {}) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, `${labelOf(required)} must be at most ${max} characters`)
    .pipe(plainText(labelOf(required), opts));

/** An optional text field, trimmed: blank, null or missing → undefined. */
export const optionalText = (label: string, max: number, opts: TextOptions = {}) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .pipe(plainText(label, opts))
    .nullish()
    .transform((v) => (v ? v : null));

/** Trimmed and lower-cased, without a format rule (sign-in and the spec's forms take what was typed). */
export const emailText = (max = 254) =>
  z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(max, `Email must be at most ${max} characters`)
    .pipe(plainText('Email'))
    .transform((email) => email.toLowerCase());

export const INVALID_EMAIL = 'Enter a valid email address, like name@example.com';

/** An address someone will write back to: emailText's rules ('Email is required' when blank), then the format. */
export const emailAddress = (max = 254) => emailText(max).pipe(z.email(INVALID_EMAIL));

/** An opaque token or cursor a client hands back (single line, bounded). */
export const tokenText = (label: string, max = 200, invalid = `${label} is not valid`) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .max(max, invalid)
    .pipe(plainText(label));

/** Accepts numbers and numeric strings (forms and query strings send text). */
export const numberField = (required: string, notNumber = required) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.trim())) : v),
    z.number({ error: (iss) => (iss.input == null ? required : notNumber) }),
  );

/** A whole number within [min, max] (max at most a Postgres integer), from JSON. */
export const intField = (label: string, min = 0, max = INT32_MAX) =>
  z
    .number({ error: (iss) => (iss.input == null ? `${label} is required` : `${label} must be a number`) })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be between ${min} and ${max}`)
    .max(max, `${label} must be between ${min} and ${max}`);

/** A positive whole-number id (at most a Postgres integer), from JSON or a query string. */
export const idField = (label = 'id') =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: (iss) => (iss.input == null ? `${label} is required` : `${label} must be a number`) })
      .int(`${label} must be a whole number`)
      .positive(`${label} must be a positive number`)
      .max(INT32_MAX, `${label} is not a known id (too large)`),
  );

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isCalendarDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** A calendar date as 'YYYY-MM-DD'. */
export const dateField = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(10, 'Use a real date in the form YYYY-MM-DD')
    .refine(isCalendarDate, 'Use a real date in the form YYYY-MM-DD');

/**
 * The latest date that is "today" somewhere on Earth (UTC+14), so a user in
 * any time zone can pick their own today but not tomorrow.
 */
export function latestTodayAnywhere(now = new Date()): string {
  return new Date(now.getTime() + 14 * 3600_000).toISOString().slice(0, 10);
}

/** Today in UTC as 'YYYY-MM-DD'. */
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);

/**
 * The key a client makes once per submission of a create it may send twice
 * (crypto.randomUUID(), kept while it retries): the server keeps one row per
 * key and owner (server/db/idempotent.ts).
 */
export const idempotencyKey = (label: string) =>
  z
    .string({ error: `${label} must be a UUID` })
    .trim()
    .toLowerCase()
    .pipe(z.uuid(`${label} must be a UUID made once per submission, such as crypto.randomUUID() gives`));

/*
 * Pieces every console list and form shares.
 */

const ADMIN_PAGE_SIZES = [10, 25, 50, 100] as const;
const DEFAULT_ADMIN_PAGE_SIZE = 25;
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

/** One page of a list and the total, for the pager (server/db/paging.ts builds it). */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });

export const byId = z.object({ id: idField('id') });

/** What a console action answers: a sentence saying what it did. */
export const messageResult = z.object({ message: z.string() });
