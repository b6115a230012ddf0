import { describe, expect, it } from 'vitest';
import { analyseDay, analyseItem, itemGrams, linkedFoodIds, type PlanFood } from './nutrition.js';

const roti: PlanFood = {
  id: 1,
  name: 'Roti',
  per100g: { energyKcal: 264, proteinG: 9.6, ironMg: 3.3 },
  portions: [{ unit: 'roti', grams: 35 }],
};
const rice: PlanFood = { id: 2, name: 'Rice', per100g: { energyKcal: 123, proteinG: 2.6 }, portions: [{ unit: 'katori', grams: 130 }] };
const foods = new Map([roti, rice].map((f) => [f.id, f]));

describe('what an item weighs', () => {
  it('takes the dietitian’s grams first, then grams or ml given as the measure, then the food’s own measure', () => {
    expect(itemGrams({ quantity: 2, unit: 'roti', grams: 80 }, roti)).toBe(80);
    expect(itemGrams({ quantity: 150, unit: 'g' }, roti)).toBe(150);
    expect(itemGrams({ quantity: 1.5, unit: 'roti' }, roti)).toBe(52.5);
    expect(itemGrams({ quantity: 1, unit: 'glass', ml: 250 }, roti)).toBe(250);
    expect(itemGrams({ quantity: 1, unit: 'glass' }, roti)).toBeNull();
  });

  it('weighs nothing while a number is half-typed', () => {
    expect(itemGrams({ quantity: Number.NaN, unit: 'roti' }, roti)).toBeNull();
    expect(itemGrams({ quantity: 2, unit: 'roti', grams: Number.NaN }, roti)).toBeNull();
  });
});

describe('sums', () => {
  it('adds linked items into meals and meals into a day, leaving free text out and counting it', () => {
    const day = analyseDay(
      {
        meals: [
          {
            items: [{ foodId: 1, portion: { quantity: 2, unit: 'roti' } }, { portion: { quantity: 1, unit: 'katori', grams: 100 } }],
          },
          { items: [{ foodId: 2, portion: { quantity: 1, unit: 'katori' } }] },
        ],
      },
      foods,
    );
    expect(day.meals[0]?.items.map((i) => i.grams)).toEqual([70, 100]);
    expect(day.meals[0]?.total).toMatchObject({ items: 1, unlinked: 1 });
    expect(day.total.values.energyKcal).toBeCloseTo(2.64 * 70 + 1.23 * 130, 9);
    expect(day.total.values.ironMg).toBeCloseTo(0.033 * 70, 9);
    expect(day.total).toMatchObject({ items: 2, unlinked: 1, missing: { ironMg: 1 } });
  });

  it('treats a link to a food no longer known as not counted', () => {
    expect(analyseItem({ foodId: 99, portion: { quantity: 1, unit: 'katori' } }, foods)).toEqual({ grams: null, nutrients: null });
  });

  it('lists each linked food once', () => {
    const item = (foodId?: number) => ({ foodId, portion: { quantity: 1, unit: 'katori' as const } });
    expect(linkedFoodIds([{ meals: [{ items: [item(1), item(), item(1), item(2)] }] }])).toEqual([1, 2]);
  });
});
