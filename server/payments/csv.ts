import type { Db } from '../db/index.js';
import { paiseToDecimal } from './money.js';
import * as repo from './repo.js';
import { stateName } from './states.js';

/** At most this many invoices in one export: years of a small clinic's invoices. */
export const CSV_EXPORT_LIMIT = 10_000;

const HEADER = [
  'Invoice number',
  'Invoice date',
  'Status',
  'Client',
  'Place of supply',
  'SAC',
  'Taxable value',
  'Discount',
  'Tax rate %',
  'CGST',
  'SGST',
  'IGST',
  'Round off',
  'Total',
  'Paid on',
  'Paid via',
  'Payment reference',
];

/**
 * A field as a spreadsheet reads it safely: quoted when needed, and text that
 * a spreadsheet would run as a formula (=, +, -, @ first) kept as text.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One line per invoice issued in the range, with its tax split, for the accountant. Void invoices stay in, marked, so the numbers have no gaps. */
export async function invoicesCsv(db: Db, from: string, to: string): Promise<{ csv: string; rows: number }> {
  const rows = await repo.invoicesIssuedBetween(db, from, to, CSV_EXPORT_LIMIT);
  const lines = [HEADER.join(',')];
  for (const r of rows) {
    const sac = (r.lines as Array<{ sac: string | null }>)[0]?.sac ?? '';
    const v = r.status === 'void';
    lines.push(
      [
        r.number,
        r.issued_on,
        r.status,
        r.client_name,
        r.client_state_code ? stateName(r.client_state_code) : '',
        sac,
        paiseToDecimal(v ? 0 : r.taxable_paise),
        paiseToDecimal(v ? 0 : r.discount_paise),
        String(r.tax_rate_bp / 100),
        paiseToDecimal(v ? 0 : r.cgst_paise),
        paiseToDecimal(v ? 0 : r.sgst_paise),
        paiseToDecimal(v ? 0 : r.igst_paise),
        paiseToDecimal(v ? 0 : r.round_off_paise),
        paiseToDecimal(v ? 0 : r.total_paise),
        r.paid_at ? r.paid_at.toISOString() : '',
        r.paid_via ?? '',
        r.payment_reference ?? '',
      ]
        .map(csvField)
        .join(','),
    );
  }
  // A byte-order mark so spreadsheet programs read ₹ and Devanagari names as UTF-8.
  return { csv: `\uFEFF${lines.join('\r\n')}\r\n`, rows: rows.length };
}
