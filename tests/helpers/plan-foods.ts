import type { TestFood } from './foods.js';

/**
 * A day's foods for the plan tests (written with seedFoods, not the IFCT import): a roti, a cooked
 * dal and cooked rice, each with its own household measure, found by the names people type. Rice
 * does not know its iron, so a day's iron says one food did not.
 */
export const PLAN_FOODS = {
  roti: {
    name: 'Plan test phulka',
    aliases: ['phulka'],
    group: 'dishes',
    per100g: { energyKcal: 264, proteinG: 9.6, carbohydrateG: 46.4, fatG: 3.7, fibreG: 9.2, ironMg: 3.3 },
    portions: [{ unit: 'roti', grams: 35 }],
  },
  dal: {
    name: 'Plan test toor dal, cooked',
    aliases: ['toor dal'],
    group: 'dishes',
    per100g: { energyKcal: 116, proteinG: 6.8, carbohydrateG: 17.1, fatG: 2.4, fibreG: 2.9, ironMg: 1.1 },
    portions: [{ unit: 'katori', grams: 150 }],
  },
  rice: {
    name: 'Plan test rice, cooked',
    aliases: ['chawal'],
    group: 'dishes',
    per100g: { energyKcal: 123, proteinG: 2.6, carbohydrateG: 27.6, fatG: 0.3, fibreG: 0.4 },
    portions: [{ unit: 'katori', grams: 130 }],
  },
} satisfies Record<string, TestFood>;
