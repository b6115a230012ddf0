import { isPlausibleHeight } from '../measurements/schema.js';

/**
 * The booking form asks for height as text "in feet", so people type
 * 5.6, 5'6", 5 ft 6 in or 168 cm. Turns that into metres for the new-client
 * form, or null when it cannot tell; the dietitian checks the result.
 */
export function heightTextToMetres(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (!t) return null;
  const round = (m: number) => (isPlausibleHeight(m) ? Math.round(m * 100) / 100 : null);
  const cm = /^(\d{2,3}(?:\.\d+)?)\s*cm$/.exec(t);
  if (cm) return round(Number(cm[1]) / 100);
  const metres = /^(\d(?:\.\d+)?)\s*m$/.exec(t);
  if (metres) return round(Number(metres[1]));
  // 5'6", 5' 6, 5 ft 6 in, 5 feet 6 inches, 5ft
  const feetInches = /^(\d)\s*(?:'|ft|feet|foot)\s*(?:(\d{1,2})\s*(?:"|''|in|inch|inches)?)?$/.exec(t);
  if (feetInches) return fromFeet(Number(feetInches[1]), Number(feetInches[2] ?? 0));
  // 5.6 or 5,6 as people write it in India: 5 feet 6 inches (5.10 is 5'10", 5.11 is 5'11").
  const dotted = /^(\d)[.,](\d{1,2})$/.exec(t);
  if (dotted && Number(dotted[2]) <= 11) return fromFeet(Number(dotted[1]), Number(dotted[2]));
  const whole = /^(\d)$/.exec(t);
  if (whole) return fromFeet(Number(whole[1]), 0);
  return null;

  function fromFeet(feet: number, inches: number) {
    if (inches > 11) return null;
    return round((feet * 12 + inches) * 0.0254);
  }
}
