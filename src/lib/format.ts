/** Money in rupees with Indian digit grouping: ₹16,499. */
const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 });
export const formatRupees = (rupees: number) => inr.format(rupees);

/** The product's one date format (23 Nov 2026) and phone format, shared with mails and PDFs. */
export { formatDay, formatMoment, formatPhone } from '../../server/format';

/** Today in the user's own time zone as 'YYYY-MM-DD' (for date inputs' max). */
export function localToday(now = new Date()): string {
  const offset = now.getTimezoneOffset() * 60_000;
  return new Date(now.getTime() - offset).toISOString().slice(0, 10);
}
