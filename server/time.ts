/**
 * The service's clock rules, in one place: the clinic works in India time, and every "today", "this
 * month", "Monday of this week" and "10:30 on that day" is reckoned in that zone. India keeps one
 * offset all year (UTC+05:30, no daylight saving), so an instant's India-time day and minute are plain
 * arithmetic. Calendar days travel as 'YYYY-MM-DD' text and their arithmetic is done at UTC midnight,
 * never in the runtime's local time.
 *
 * Pure (Intl only, no Node): the server, the seed and the browser all read time the same way. "Now"
 * is never read here; callers pass it (on the server it comes from `deps.clock`).
 */

/** The zone the clinic works in: availability, invoices, the journal's days, mails and PDFs. */
export const SERVICE_TIME_ZONE = 'Asia/Kolkata';
/** The zone's offset from UTC in minutes (India keeps it all year). */
const SERVICE_OFFSET_MINUTES = 5 * 60 + 30;

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** Whether a time zone name is the service's own (with the older name browsers still report). */
export const isServiceZone = (timeZone: string | null | undefined) => timeZone === SERVICE_TIME_ZONE || timeZone === 'Asia/Calcutta';

/** The service-time calendar day of an instant, 'YYYY-MM-DD'. */
export const serviceDay = (at: Date) => new Date(at.getTime() + SERVICE_OFFSET_MINUTES * MINUTE_MS).toISOString().slice(0, 10);

/** Minutes since service-time midnight of an instant. */
export const serviceMinute = (at: Date) => {
  const shifted = at.getTime() + SERVICE_OFFSET_MINUTES * MINUTE_MS;
  return Math.floor((((shifted % DAY_MS) + DAY_MS) % DAY_MS) / MINUTE_MS);
};

/** The instant of `minute` past midnight on the service-time `day`. */
export const serviceInstant = (day: string, minute = 0) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + (minute - SERVICE_OFFSET_MINUTES) * MINUTE_MS);

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of an instant in any time zone, 'YYYY-MM-DD' (the service's zone unless told). */
export function dayIn(at: Date, timeZone: string = SERVICE_TIME_ZONE): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(at);
}

/** A calendar day moved by `n` days (negative: back). */
export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** Whole days from one calendar day to another (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** ISO weekday of a calendar day: 1 = Monday … 7 = Sunday. */
export const isoWeekday = (day: string) => {
  const d = new Date(`${day}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
};

/** The Monday of the ISO week holding `day`. */
export const mondayOf = (day: string) => addDays(day, 1 - isoWeekday(day));

/** The service-time month holding `day`, as instants: [start, end), e.g. 1 Nov 00:00 IST to 1 Dec 00:00 IST. */
export function monthRange(day: string): { start: Date; end: Date } {
  const [y, m] = day.split('-').map(Number) as [number, number];
  const first = (year: number, month: number) => new Date(Date.UTC(year, month - 1, 1)).toISOString().slice(0, 10);
  return { start: serviceInstant(first(y, m)), end: serviceInstant(first(y, m + 1)) };
}
