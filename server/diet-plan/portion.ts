import { type Measure, quantityText } from '../nutrition/measures.js';

/**
 * How a plan prints a portion and a meal's time: one wording for the console's screens, the PDF
 * and the client's journal ("1½ katoris (150 g)", "7:30 am"). Browser-safe.
 */

/** A portion as a plan holds it: the household measure, with weighed grams or millilitres when known. */
export type PortionLike = { quantity: number; unit: Measure; grams?: number | null; ml?: number | null };

/** '1 katori (150 g)', '2 rotis (60 g)', '1½ glasses (300 ml)', '150 g'. */
export function portionText(p: PortionLike): string {
  const metric = p.unit === 'g' || p.unit === 'ml' ? [] : [p.grams != null ? `${p.grams} g` : null, p.ml != null ? `${p.ml} ml` : null];
  const extra = metric.filter(Boolean).join(', ');
  return `${quantityText(p.quantity, p.unit)}${extra ? ` (${extra})` : ''}`;
}

/** '07:30' → '7:30 am', '13:00' → '1:00 pm'. */
export function timeText(hhmm: string): string {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'am' : 'pm'}`;
}
