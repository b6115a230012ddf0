/**
 * When a client's next check-in is due (decision record 070). Pure and in UTC
 * calendar days ('YYYY-MM-DD' in and out), so the server, the reminders and
 * the tests agree on every edge.
 *
 * - A 1-month plan is due every 14 days, a longer plan every 7.
 * - The count starts at the latest of the subscription's start, the last
 *   check-in and the last contact over any channel (repo.lastContacts): a
 *   session held or a dietitian's message is a follow-up as much as the form is.
 * - The clock stops while the subscription is paused: each paused day after
 *   the count started moves the due date out by a day; while a pause is open
 *   nothing is due.
 */

import { addDays, daysBetween } from '../time.js';

/** The later of two 'YYYY-MM-DD' days (they compare as text). */
const laterDay = (a: string, b: string) => (a > b ? a : b);

export const CHECK_IN_EVERY_DAYS_SHORT_PLAN = 14;
export const CHECK_IN_EVERY_DAYS_LONGER_PLAN = 7;

export function checkInIntervalDays(planMonths: number): number {
  return planMonths <= 1 ? CHECK_IN_EVERY_DAYS_SHORT_PLAN : CHECK_IN_EVERY_DAYS_LONGER_PLAN;
}

export type Pause = { pausedFrom: string; resumedOn: string | null };

export type CheckInSchedule =
  | { state: 'paused'; pausedSince: string }
  | { state: 'overdue' | 'due' | 'upcoming'; dueDate: string; daysOverdue: number; daysUntil: number };

/**
 * The schedule of one subscription on `today`.
 * @param lastCheckIn the day of the client's latest check-in, if any
 * @param lastContact the day she and the practice were last in touch (repo.lastContacts), if ever
 */
export function checkInSchedule(opts: {
  startDate: string;
  planMonths: number;
  lastCheckIn: string | null;
  lastContact?: string | null;
  pauses: readonly Pause[];
  today: string;
}): CheckInSchedule {
  let anchor = opts.startDate;
  for (const day of [opts.lastCheckIn, opts.lastContact]) if (day) anchor = laterDay(day, anchor);
  let due = addDays(anchor, checkInIntervalDays(opts.planMonths));
  const pauses = [...opts.pauses].sort((a, b) => (a.pausedFrom < b.pausedFrom ? -1 : a.pausedFrom > b.pausedFrom ? 1 : 0));
  for (const p of pauses) {
    if (p.resumedOn === null) {
      // An open pause that has begun stops everything; one that begins after the due date does not matter yet.
      if (p.pausedFrom <= opts.today && p.pausedFrom <= due) return { state: 'paused', pausedSince: p.pausedFrom };
      continue;
    }
    if (p.pausedFrom >= due || p.resumedOn <= anchor) continue;
    const from = laterDay(p.pausedFrom, anchor);
    due = addDays(due, daysBetween(from, p.resumedOn));
  }
  const daysUntil = daysBetween(opts.today, due);
  const state = daysUntil < 0 ? 'overdue' : daysUntil === 0 ? 'due' : 'upcoming';
  return { state, dueDate: due, daysOverdue: Math.max(0, -daysUntil), daysUntil: Math.max(0, daysUntil) };
}

/** Queue order: overdue (most overdue first), due today, upcoming (soonest first), paused last. */
export function compareSchedules(a: CheckInSchedule, b: CheckInSchedule): number {
  const rank = (s: CheckInSchedule) => (s.state === 'overdue' ? 0 : s.state === 'due' ? 1 : s.state === 'upcoming' ? 2 : 3);
  const r = rank(a) - rank(b);
  if (r !== 0) return r;
  if (a.state === 'paused' || b.state === 'paused') return 0;
  return a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : 0;
}
