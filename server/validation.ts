import { z } from 'zod';

/**
 * Field builders shared by every schema (server and client forms), so each
 * rule and message of spec section 5 is written once.
 */

/** A required text field: missing, null or blank → `required`. */
export const requiredText = (required: string, max = 2000) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, `${required.replace(/ is required$/, '')} must be at most ${max} characters`);

/** Accepts numbers and numeric strings (forms and query strings send text). */
export const numberField = (required: string, notNumber = required) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.trim())) : v),
    z.number({ error: (iss) => (iss.input == null ? required : notNumber) }),
  );

/** A positive whole-number id, from JSON or a query string. */
export const idField = (label = 'id') =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: (iss) => (iss.input == null ? `${label} is required` : `${label} must be a number`) })
      .int(`${label} must be a whole number`)
      .positive(`${label} must be a positive number`),
  );

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isCalendarDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** A calendar date as 'YYYY-MM-DD'. */
export const dateField = (required: string) =>
  z.string({ error: required }).trim().min(1, required).refine(isCalendarDate, 'Use a real date in the form YYYY-MM-DD');

/**
 * The latest date that is "today" somewhere on Earth (UTC+14), so a user in
 * any time zone can pick their own today but not tomorrow.
 */
export function latestTodayAnywhere(now = new Date()): string {
  return new Date(now.getTime() + 14 * 3600_000).toISOString().slice(0, 10);
}

/** Today in UTC as 'YYYY-MM-DD'. */
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);
