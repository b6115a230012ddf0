/** Money in rupees with Indian digit grouping: ₹16,499. */
const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 });
export const formatRupees = (rupees: number) => inr.format(rupees);

/** A 'YYYY-MM-DD' day in the user's locale, without time-zone shifts. */
export function formatDay(day: string | null | undefined, locale?: string): string {
  if (!day) return 'Invalid date';
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return 'Invalid date';
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString(locale, { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
}

/** Today in the user's own time zone as 'YYYY-MM-DD' (for date inputs' max). */
export function localToday(now = new Date()): string {
  const offset = now.getTimezoneOffset() * 60_000;
  return new Date(now.getTime() - offset).toISOString().slice(0, 10);
}
