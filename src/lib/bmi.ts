import { HEIGHT_M, WEIGHT_KG } from '../../server/measurements/schema';

/**
 * Body-mass index: BMI = weight / height², shown with three
 * decimals on a gauge from -110° to 110° with four categories.
 */

/**
 * Thresholds 18.5, 24.9, 25 and 29.9. The bands are read as half-open so
 * no value falls between them: a BMI of 24.95 is still healthy, 29.95 still overweight.
 */
export const BMI_THRESHOLDS = { healthyFrom: 18.5, overweightFrom: 25, obesityFrom: 30 } as const;

export type BmiCategory = { label: 'Underweight' | 'Healthy Weight' | 'Overweight' | 'Obesity'; healthy: boolean };

export type BmiInput =
  | { kind: 'empty' }
  | { kind: 'invalid'; field: 'height' | 'weight'; hint: string }
  | { kind: 'ok'; bmi: number; heightM: number; weightKg: number };

/** Reads a decimal typed by a person: '70', ' 70.5 ', '70,5'. Null when it is not a finite number. */
export function parseDecimal(raw: string): number | null {
  const text = raw.trim().replace(',', '.');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

export function heightHint(heightM: number): string | null {
  if (heightM <= 0) return 'Height must be more than 0 m.';
  if (heightM >= HEIGHT_M.min * 100 && heightM <= HEIGHT_M.max * 100)
    return `Height is in metres: did you mean ${(heightM / 100).toFixed(2)} m?`;
  if (heightM < HEIGHT_M.min || heightM > HEIGHT_M.max) return `Enter a height between ${HEIGHT_M.min} and ${HEIGHT_M.max} m, e.g. 1.70.`;
  return null;
}

export function weightHint(weightKg: number): string | null {
  if (weightKg <= 0) return 'Weight must be more than 0 kg.';
  if (weightKg < WEIGHT_KG.min || weightKg > WEIGHT_KG.max)
    return `Enter a weight between ${WEIGHT_KG.min} and ${WEIGHT_KG.max} kg, e.g. 70.`;
  return null;
}

/** The BMI of two raw inputs, or which field is wrong and why. Never NaN or Infinity. */
export function readBmiInput(heightRaw: string, weightRaw: string): BmiInput {
  const hasHeight = heightRaw.trim() !== '';
  const hasWeight = weightRaw.trim() !== '';
  if (hasHeight) {
    const h = parseDecimal(heightRaw);
    if (h === null) return { kind: 'invalid', field: 'height', hint: 'Enter your height in metres as a number, e.g. 1.70.' };
    const hint = heightHint(h);
    if (hint) return { kind: 'invalid', field: 'height', hint };
  }
  if (hasWeight) {
    const w = parseDecimal(weightRaw);
    if (w === null) return { kind: 'invalid', field: 'weight', hint: 'Enter your weight in kilograms as a number, e.g. 70.' };
    const hint = weightHint(w);
    if (hint) return { kind: 'invalid', field: 'weight', hint };
  }
  if (!hasHeight || !hasWeight) return { kind: 'empty' };
  const heightM = parseDecimal(heightRaw)!;
  const weightKg = parseDecimal(weightRaw)!;
  return { kind: 'ok', bmi: computeBmi(heightM, weightKg), heightM, weightKg };
}

/** weight / height², rounded to 3 decimals; 0 when either value cannot give a BMI. */
export function computeBmi(heightM: number, weightKg: number): number {
  if (!Number.isFinite(heightM) || !Number.isFinite(weightKg) || heightM <= 0 || weightKg <= 0) return 0;
  return Math.round((weightKg / (heightM * heightM)) * 1000) / 1000;
}

export const formatBmi = (bmi: number) => bmi.toFixed(3);

export function bmiCategory(bmi: number): BmiCategory {
  if (bmi < BMI_THRESHOLDS.healthyFrom) return { label: 'Underweight', healthy: false };
  if (bmi < BMI_THRESHOLDS.overweightFrom) return { label: 'Healthy Weight', healthy: true };
  if (bmi < BMI_THRESHOLDS.obesityFrom) return { label: 'Overweight', healthy: false };
  return { label: 'Obesity', healthy: false };
}

/** The gauge's scale: BMI 10 sits at the left end (-110°), BMI 40 at the right end (110°). */
export const GAUGE = { minBmi: 10, maxBmi: 40, minDeg: -110, maxDeg: 110 } as const;

export function gaugeAngle(bmi: number): number {
  const clamped = Math.min(GAUGE.maxBmi, Math.max(GAUGE.minBmi, bmi));
  return GAUGE.minDeg + ((clamped - GAUGE.minBmi) / (GAUGE.maxBmi - GAUGE.minBmi)) * (GAUGE.maxDeg - GAUGE.minDeg);
}
