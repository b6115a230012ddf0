import { formatDay, formatMoment } from '../../server/format';

/**
 * A post's age as the feed shows it: under a minute 'just now',
 * under 60 minutes '5m', under 24 hours '3h', otherwise the date (23 Nov 2026)
 * in the reader's time zone; a missing or unreadable date is 'Invalid date'.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function toDate(value: Date | string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The calendar day of a moment in this device's time zone. */
const localDayOf = (date: Date) => new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);

export function relativeTime(value: Date | string | number | null | undefined, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return 'Invalid date';
  // A post stamped slightly ahead of this device's clock is still brand new.
  const age = Math.max(0, now.getTime() - date.getTime());
  if (age < MINUTE) return 'just now';
  if (age < HOUR) return `${Math.floor(age / MINUTE)}m`;
  if (age < DAY) return `${Math.floor(age / HOUR)}h`;
  return formatDay(localDayOf(date));
}

/** The full moment, for the tooltip and `<time dateTime>` next to the short form. */
export function fullDateTime(value: Date | string | number | null | undefined): string | null {
  const date = toDate(value);
  return date ? formatMoment(date) : null;
}
