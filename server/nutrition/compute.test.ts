import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nutrientsIn, recipePer100g, standing, sumNutrients } from './compute.js';
import { defaultPortions, FOOD_GROUP_KEYS } from './groups.js';
import { gramsOf, MEASURE_KEYS, parseQuantity, quantityOf, quantityText } from './measures.js';
import { NUTRIENT_KEYS, type Nutrients, nutrientProblems } from './nutrients.js';

const value = fc.double({ min: 0, max: 500, noNaN: true, noDefaultInfinity: true });
const per100g = fc.record(Object.fromEntries(NUTRIENT_KEYS.map((k) => [k, value])) as Record<keyof Nutrients, fc.Arbitrary<number>>, {
  requiredKeys: [],
});
const grams = fc.double({ min: 0.1, max: 2000, noNaN: true, noDefaultInfinity: true });
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

describe('nutrition arithmetic', () => {
  it('scales every nutrient linearly with the quantity', () => {
    fc.assert(
      fc.property(per100g, grams, fc.double({ min: 0.1, max: 20, noNaN: true, noDefaultInfinity: true }), (v, g, k) => {
        const once = nutrientsIn(v, g);
        const scaled = nutrientsIn(v, g * k);
        for (const key of NUTRIENT_KEYS) {
          if (v[key] === undefined) expect(scaled[key]).toBeUndefined();
          else expect(close(scaled[key]!, once[key]! * k)).toBe(true);
        }
      }),
    );
  });

  it('gives a recipe per 100 g the sum of its ingredients over its cooked weight', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ per100g, grams }), { minLength: 1, maxLength: 8 }), grams, (ingredients, cooked) => {
        const dish = recipePer100g(ingredients, cooked);
        const total = sumNutrients(ingredients.map((i) => nutrientsIn(i.per100g, i.grams)));
        for (const key of NUTRIENT_KEYS) {
          if (total.missing[key]) expect(dish[key]).toBeUndefined();
          else expect(close((dish[key]! * cooked) / 100, total.values[key]!)).toBe(true);
        }
      }),
    );
  });

  it('keeps unknown apart from zero when summing', () => {
    const total = sumNutrients([{ ironMg: 2 }, { proteinG: 3 }, { ironMg: 1, proteinG: 0 }]);
    expect(total.values).toEqual({ ironMg: 3, proteinG: 3 });
    expect(total.missing.ironMg).toBe(1);
    expect(total.missing.proteinG).toBe(1);
    expect(total.missing.zincMg).toBe(3);
    expect(total.values.zincMg).toBeUndefined();
  });

  it('marks a day under 80 % and over 120 % of a target', () => {
    expect(standing(0.79)).toBe('under');
    expect(standing(0.8)).toBe('within');
    expect(standing(1.21)).toBe('over');
    expect(standing(null)).toBeNull();
  });
});

describe('household measures', () => {
  it('reads the ways people write a quantity', () => {
    expect(parseQuantity('1½ katori')).toEqual({ quantity: 1.5, unit: 'katori' });
    expect(parseQuantity('1 1/2 katoris')).toEqual({ quantity: 1.5, unit: 'katori' });
    expect(parseQuantity('1.5 Katori')).toEqual({ quantity: 1.5, unit: 'katori' });
    expect(parseQuantity('150g')).toEqual({ quantity: 150, unit: 'g' });
    expect(parseQuantity('2 chapatis')).toEqual({ quantity: 2, unit: 'roti' });
    expect(parseQuantity('½ cup')).toEqual({ quantity: 0.5, unit: 'cup' });
    expect(parseQuantity('1/4 tsp')).toEqual({ quantity: 0.25, unit: 'tsp' });
    expect(parseQuantity('katori')).toBeNull();
    expect(parseQuantity('2 spoons of love')).toBeNull();
    expect(parseQuantity('0 g')).toBeNull();
    expect(parseQuantity('1/0 cup')).toBeNull();
  });

  it('prints a quantity the way it is read back', () => {
    for (const unit of MEASURE_KEYS) {
      for (const q of [0.25, 0.5, 0.75, 1, 1.5, 2, 3.25]) expect(parseQuantity(quantityText(q, unit))).toEqual({ quantity: q, unit });
    }
    expect(quantityText(1.5, 'katori')).toBe('1½ katoris');
    expect(quantityText(1, 'roti')).toBe('1 roti');
  });

  it('converts measures to grams and back', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FOOD_GROUP_KEYS), grams, (group, g) => {
        const portions = defaultPortions(group);
        for (const { unit } of portions) {
          const q = quantityOf(g, unit, portions)!;
          expect(close(gramsOf(q, unit, portions)!, g)).toBe(true);
        }
        expect(gramsOf(g, 'g', portions)).toBe(g);
      }),
    );
    expect(gramsOf(1, 'roti', defaultPortions('fruits'))).toBeNull();
  });
});

describe('sanity rules for a food', () => {
  it('accepts a sound food and says what is wrong with an unsound one', () => {
    // Whole wheat atta as IFCT 2017 lists it (A019): 320 kcal, 10.6 g protein, 64.2 g carbohydrate, 1.5 g fat, 11.4 g fibre.
    expect(nutrientProblems({ energyKcal: 320, proteinG: 10.6, carbohydrateG: 64.2, fatG: 1.5, fibreG: 11.4 })).toEqual([]);
    expect(nutrientProblems({ fatG: 2, saturatedFatG: 5 })).toEqual([
      expect.stringContaining('Saturated fat (5 g) is more than total fat (2 g)'),
    ]);
    expect(nutrientProblems({ carbohydrateG: 10, sugarsG: 12 })).toEqual([expect.stringContaining('Total sugars')]);
    expect(nutrientProblems({ energyKcal: 800, proteinG: 10, carbohydrateG: 10, fatG: 1 })).toEqual([expect.stringContaining('far from')]);
    expect(nutrientProblems({ energyKcal: 100, energyKj: 1000 })).toEqual([expect.stringContaining('disagree')]);
  });
});
