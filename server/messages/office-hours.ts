import { formatMoment, SERVICE_TIME_ZONE } from '../format.js';
import { WEEKDAYS, type OfficeHours } from './schema.js';

/**
 * Office hours are set in India time. India keeps one offset all year (UTC+05:30, no daylight saving),
 * so a local time of day is that instant less 5 h 30 min; Intl formats the answer for people.
 */
const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;
const DAY_MS = 86_400_000;

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Open from `opens` to `closes` on each of `days`; null or no days: always open. */
export function isAlwaysOpen(hours: OfficeHours | null): boolean {
  return !hours?.days || hours.days.length === 0;
}

/**
 * When the office is closed at `now`, the moment it opens next (which also
 * names the closed period: one automatic reply per period); null while open.
 */
export function nextOpening(hours: OfficeHours | null, now: Date): Date | null {
  if (!hours || isAlwaysOpen(hours)) return null;
  const days = new Set(hours.days);
  const localMidnight = Math.floor((now.getTime() + IST_OFFSET_MS) / DAY_MS) * DAY_MS - IST_OFFSET_MS;
  for (let d = 0; d <= 7; d += 1) {
    const midnight = localMidnight + d * DAY_MS;
    // 1970-01-01 was a Thursday (ISO 4).
    const isoWeekday = ((Math.floor((midnight + IST_OFFSET_MS) / DAY_MS) + 3) % 7) + 1;
    if (!days.has(isoWeekday)) continue;
    const opens = midnight + minutesOf(hours.opens) * 60_000;
    const closes = midnight + minutesOf(hours.closes) * 60_000;
    if (now.getTime() >= opens && now.getTime() < closes) return null;
    if (opens > now.getTime()) return new Date(opens);
  }
  return null;
}

/** The automatic reply to a client who writes while the office is closed. */
export function awayReply(opensAt: Date): string {
  const weekday = WEEKDAYS[(((Math.floor((opensAt.getTime() + IST_OFFSET_MS) / DAY_MS) + 3) % 7) + 7) % 7]!;
  return (
    `Thank you for your message. Our dietitians are away right now. ` +
    `We are back on ${weekday}, ${formatMoment(opensAt, SERVICE_TIME_ZONE)} (India time) and will answer you then.`
  );
}
