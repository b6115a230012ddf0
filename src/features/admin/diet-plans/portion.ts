import { HOUSEHOLD_UNITS, type Portion } from '../../../../server/diet-plan/schema';

/**
 * The plan's portions as the screen shows them ('1½ katoris (150 g)'). The
 * PDF renderer formats its own (server/pdf, which the browser cannot load).
 */
const FRACTIONS: Record<string, string> = { '0.25': '¼', '0.5': '½', '0.75': '¾' };

export function portionText(p: Portion): string {
  const whole = Math.floor(p.quantity);
  const fraction = FRACTIONS[String(p.quantity - whole)] ?? '';
  const quantity = `${whole > 0 || !fraction ? whole : ''}${fraction}`;
  const unit = HOUSEHOLD_UNITS[p.unit];
  const metric = [p.grams !== undefined ? `${p.grams} g` : null, p.ml !== undefined ? `${p.ml} ml` : null].filter(Boolean).join(', ');
  return `${quantity} ${p.quantity > 1 ? unit.many : unit.one}${metric ? ` (${metric})` : ''}`;
}

/** '07:30' → '7:30 am'. */
export function timeText(hhmm: string): string {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'am' : 'pm'}`;
}
