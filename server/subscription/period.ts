/**
 * Subscription dates, pure and in UTC ('YYYY-MM-DD' in and out), so the
 * server, the seed and the tests agree on every calendar edge.
 */

const toDate = (day: string) => new Date(`${day}T00:00:00Z`);
const toDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The last day a plan of `months` months bought on `startDate` is active:
 * the day before the same date `months` later. When that month has no such
 * date (31 Jan + 1 month), the plan runs to the end of that month.
 * Inclusive, so 2026-01-15 + 1 month → 2026-02-14.
 */
export function subscriptionEndDate(startDate: string, months: number): string {
  if (!Number.isInteger(months) || months < 1) throw new RangeError(`A plan lasts a whole number of months, not ${months}`);
  const start = toDate(startDate);
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth() + months;
  const d = start.getUTCDate();
  const daysInTarget = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  // The anniversary, or the 1st of the next month when the target month is too short.
  const anniversary = d <= daysInTarget ? new Date(Date.UTC(y, m, d)) : new Date(Date.UTC(y, m + 1, 1));
  anniversary.setUTCDate(anniversary.getUTCDate() - 1);
  return toDay(anniversary);
}

/** How long a catalogue plan lasts: whole months, or a number of days for plans sold by the week ("4 Weeks" = 28 days). */
export type PlanLength = { durationMonths: number; durationDays?: number };

/**
 * The last day a plan bought on `startDate` is active. A plan counted in days
 * runs that many days, the start day included (28 days from 1 Nov end on
 * 28 Nov); otherwise see subscriptionEndDate.
 */
export function planEndDate(startDate: string, plan: PlanLength): string {
  if (plan.durationDays === undefined) return subscriptionEndDate(startDate, plan.durationMonths);
  if (!Number.isInteger(plan.durationDays) || plan.durationDays < 1)
    throw new RangeError(`A plan lasts a whole number of days, not ${plan.durationDays}`);
  const end = toDate(startDate);
  end.setUTCDate(end.getUTCDate() + plan.durationDays - 1);
  return toDay(end);
}

/** Expired once its last day is over (in UTC), or as soon as it is cancelled. */
export function isSubscriptionExpired(endDate: string, cancelledAt: Date | null, today: string): boolean {
  return cancelledAt !== null || endDate < today;
}
