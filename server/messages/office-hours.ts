import { formatMoment } from '../format.js';
import { addDays, isoWeekday, SERVICE_TIME_ZONE, serviceDay, serviceInstant } from '../time.js';
import { WEEKDAYS, type OfficeHours } from './schema.js';

/** Office hours are set in India time (the service's zone); Intl formats the answer for people. */

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
  const today = serviceDay(now);
  for (let d = 0; d <= 7; d += 1) {
    const day = addDays(today, d);
    if (!days.has(isoWeekday(day))) continue;
    const opens = serviceInstant(day, minutesOf(hours.opens)).getTime();
    const closes = serviceInstant(day, minutesOf(hours.closes)).getTime();
    if (now.getTime() >= opens && now.getTime() < closes) return null;
    if (opens > now.getTime()) return new Date(opens);
  }
  return null;
}

/** The automatic reply to a client who writes while the office is closed. */
export function awayReply(opensAt: Date): string {
  const weekday = WEEKDAYS[isoWeekday(serviceDay(opensAt)) - 1]!;
  return (
    `Thank you for your message. Our dietitians are away right now. ` +
    `We are back on ${weekday}, ${formatMoment(opensAt, SERVICE_TIME_ZONE)} (India time) and will answer you then.`
  );
}
