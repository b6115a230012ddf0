/** The product's one date format (23 Nov 2026), phone format and money format (₹16,499), shared with mails and PDFs. */
export { formatDay, formatMoment, formatPhone, formatRupees } from '../../server/format';

/** Today in the user's own time zone as 'YYYY-MM-DD' (for date inputs' max). */
export function localToday(now = new Date()): string {
  const offset = now.getTimezoneOffset() * 60_000;
  return new Date(now.getTime() - offset).toISOString().slice(0, 10);
}
