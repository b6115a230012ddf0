/**
 * The one date format of the product, en-IN style: `23 Nov 2026`, and with a
 * time `23 Nov 2026, 2:47 pm`. Pure (no Node): mails, PDFs and the React app
 * all use it, so a date reads the same on every screen and in every mail.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** A calendar day ('YYYY-MM-DD' or a Date at UTC midnight) as `23 Nov 2026`. */
export function formatDay(day: string | Date | null | undefined): string {
  if (!day) return 'Invalid date';
  const iso = typeof day === 'string' ? day.slice(0, 10) : Number.isNaN(day.getTime()) ? '' : day.toISOString().slice(0, 10);
  const [y, m, d] = iso.split('-').map(Number);
  if (!y || !m || !d || m > 12) return 'Invalid date';
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

/** A moment as `23 Nov 2026, 2:47 pm` in the given time zone (the browser's own when none is given). */
export function formatMoment(moment: Date | string | null | undefined, timeZone?: string): string {
  if (!moment) return '—';
  const date = typeof moment === 'string' ? new Date(moment) : moment;
  if (Number.isNaN(date.getTime())) return '—';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-IN', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  const month = MONTHS[Number(parts.month) - 1];
  return `${Number(parts.day)} ${month} ${parts.year}, ${Number(parts.hour)}:${parts.minute} ${String(parts.dayPeriod).toLowerCase()}`;
}

/**
 * Whole rupees with Indian grouping (2,171; 11,999; 1,23,456), as Intl's en-IN writes them. Written out
 * because public pages format prices while they hydrate (the plan catalogue is built when its module is
 * evaluated), and Intl's first use loads the locale's data: the longest task of the pricing and FAQ pages.
 * format.test.ts checks it against Intl.
 */
export function groupRupees(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`Not a whole number of rupees: ${n}`);
  const digits = String(n);
  if (digits.length <= 3) return digits;
  return `${digits.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',')},${digits.slice(-3)}`;
}

/** Money in rupees as `₹16,499`: rounded to the rupee half away from zero, signed, as Intl's INR currency format in en-IN. */
export function formatRupees(rupees: number): string {
  const whole = Math.round(Math.abs(rupees));
  return `${rupees < 0 || Object.is(rupees, -0) ? '-' : ''}₹${groupRupees(whole)}`;
}

/**
 * A phone number as people read it: Indian numbers `+91 98765 43210`, others
 * `+<country code and number>` (their grouping varies by country). Accepts what the forms store (digits only).
 */
export function formatPhone(raw: string | null | undefined): string {
  if (!raw) return '';
  const digits = raw.replace(/\D/g, '');
  if (digits.length === 10) return `+91 ${digits.slice(0, 5)} ${digits.slice(5)}`;
  if (digits.length === 12 && digits.startsWith('91')) return `+91 ${digits.slice(2, 7)} ${digits.slice(7)}`;
  if (digits.length < 10) return raw;
  return `+${digits}`;
}
