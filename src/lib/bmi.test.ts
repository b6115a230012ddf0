import { describe, expect, it } from 'vitest';
import { bmiCategory, computeBmi, formatBmi, GAUGE, gaugeAngle, parseDecimal, readBmiInput } from './bmi';

describe('computeBmi', () => {
  it('is weight divided by height squared, to 3 decimals', () => {
    expect(computeBmi(1.7, 70)).toBe(24.221);
    expect(computeBmi(1.8, 81)).toBe(25);
    expect(formatBmi(computeBmi(1.8, 81))).toBe('25.000');
    expect(formatBmi(computeBmi(1.62, 55.5))).toBe('21.148');
  });

  it('is 0 instead of NaN or Infinity for impossible inputs', () => {
    expect(computeBmi(0, 70)).toBe(0);
    expect(computeBmi(-1.7, 70)).toBe(0);
    expect(computeBmi(1.7, 0)).toBe(0);
    expect(computeBmi(Number.NaN, 70)).toBe(0);
    expect(computeBmi(1.7, Number.POSITIVE_INFINITY)).toBe(0);
  });
});

describe('bmiCategory', () => {
  it.each([
    [10, 'Underweight', false],
    [18.499, 'Underweight', false],
    [18.5, 'Healthy Weight', true],
    [24.9, 'Healthy Weight', true],
    [24.95, 'Healthy Weight', true],
    [25, 'Overweight', false],
    [29.9, 'Overweight', false],
    [29.95, 'Overweight', false],
    [30, 'Obesity', false],
    [45, 'Obesity', false],
  ])('BMI %s is %s', (bmi, label, healthy) => {
    expect(bmiCategory(bmi)).toEqual({ label, healthy });
  });
});

describe('gaugeAngle', () => {
  it('spans -110° to 110° and clamps beyond the scale', () => {
    expect(gaugeAngle(GAUGE.minBmi)).toBe(-110);
    expect(gaugeAngle(GAUGE.maxBmi)).toBe(110);
    expect(gaugeAngle(25)).toBe(0);
    expect(gaugeAngle(3)).toBe(-110);
    expect(gaugeAngle(90)).toBe(110);
  });

  it('grows with the BMI', () => {
    expect(gaugeAngle(18.5)).toBeLessThan(gaugeAngle(24.9));
    expect(gaugeAngle(24.9)).toBeLessThan(gaugeAngle(29.9));
  });
});

describe('parseDecimal', () => {
  it('reads what people type', () => {
    expect(parseDecimal('70')).toBe(70);
    expect(parseDecimal(' 70.5 ')).toBe(70.5);
    expect(parseDecimal('70,5')).toBe(70.5);
    expect(parseDecimal('.5')).toBe(0.5);
  });

  it('refuses text, blanks and exponent tricks', () => {
    expect(parseDecimal('abc')).toBeNull();
    expect(parseDecimal('')).toBeNull();
    expect(parseDecimal('1e400')).toBeNull();
    expect(parseDecimal('70kg')).toBeNull();
  });
});

describe('readBmiInput', () => {
  it('is empty until both fields are filled', () => {
    expect(readBmiInput('', '')).toEqual({ kind: 'empty' });
    expect(readBmiInput('1.7', '')).toEqual({ kind: 'empty' });
    expect(readBmiInput('', '70')).toEqual({ kind: 'empty' });
  });

  it('computes once both are filled', () => {
    expect(readBmiInput('1.70', '70')).toEqual({ kind: 'ok', bmi: 24.221, heightM: 1.7, weightKg: 70 });
  });

  it('hints at centimetres typed into the metres field', () => {
    const r = readBmiInput('170', '70');
    expect(r).toMatchObject({ kind: 'invalid', field: 'height' });
    expect(r.kind === 'invalid' && r.hint).toContain('1.70 m');
  });

  it('explains zero, negative, absurd and non-numeric values', () => {
    expect(readBmiInput('0', '70')).toMatchObject({ kind: 'invalid', field: 'height', hint: 'Height must be more than 0 m.' });
    expect(readBmiInput('-1.7', '70')).toMatchObject({ kind: 'invalid', field: 'height' });
    expect(readBmiInput('12', '70')).toMatchObject({ kind: 'invalid', field: 'height' });
    expect(readBmiInput('1.7', '0')).toMatchObject({ kind: 'invalid', field: 'weight', hint: 'Weight must be more than 0 kg.' });
    expect(readBmiInput('1.7', '5000')).toMatchObject({ kind: 'invalid', field: 'weight' });
    expect(readBmiInput('1.7', 'seventy')).toMatchObject({ kind: 'invalid', field: 'weight' });
    // A bad height is reported even before the weight is typed.
    expect(readBmiInput('abc', '')).toMatchObject({ kind: 'invalid', field: 'height' });
  });
});
