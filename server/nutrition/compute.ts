import { NUTRIENT_KEYS, type NutrientKey, type Nutrients } from './nutrients.js';

/**
 * The arithmetic of nutrition, in one place for the server (REST answers, the PDF, the journal's
 * days) and the browser (the plan builder's live totals): values are per 100 g of edible portion,
 * a quantity is grams, and a sum keeps "unknown" apart from zero: a total carries a nutrient only
 * when every item knows it, and says how many items did not (`missing`), so a day's iron is never
 * quietly understated. Values are kept unrounded; round only to print. Browser-safe.
 */

/** The nutrients in `grams` of a food whose values per 100 g are `per100g`. */
export function nutrientsIn(per100g: Nutrients, grams: number): Nutrients {
  const out: Nutrients = {};
  for (const key of NUTRIENT_KEYS) {
    const v = per100g[key];
    if (v !== undefined) out[key] = (v * grams) / 100;
  }
  return out;
}

/** A sum of items, with the count of items that did not know each nutrient. */
export type Total = { values: Nutrients; missing: Partial<Record<NutrientKey, number>>; items: number };

export const EMPTY_TOTAL: Total = { values: {}, missing: {}, items: 0 };

/** Adds item nutrient amounts; a nutrient unknown for some item is summed over the others and counted in `missing`. */
export function sumNutrients(items: readonly Nutrients[]): Total {
  const values: Nutrients = {};
  const missing: Partial<Record<NutrientKey, number>> = {};
  for (const key of NUTRIENT_KEYS) {
    let sum = 0;
    let known = 0;
    for (const item of items) {
      const v = item[key];
      if (v === undefined) continue;
      sum += v;
      known += 1;
    }
    if (known > 0) values[key] = sum;
    if (known < items.length) missing[key] = items.length - known;
  }
  return { values, missing, items: items.length };
}

/** Adds totals (meals into a day, days into a week). */
export function addTotals(totals: readonly Total[]): Total {
  const values: Nutrients = {};
  const missing: Partial<Record<NutrientKey, number>> = {};
  let items = 0;
  for (const t of totals) {
    items += t.items;
    for (const key of NUTRIENT_KEYS) {
      const v = t.values[key];
      if (v !== undefined) values[key] = (values[key] ?? 0) + v;
      const m = t.missing[key];
      if (m) missing[key] = (missing[key] ?? 0) + m;
    }
  }
  // A nutrient no item knew stays absent (not 0).
  return { values, missing, items };
}

export type Ingredient = { per100g: Nutrients; grams: number };

/**
 * A recipe's values per 100 g of the cooked dish: the sum of its ingredients (raw weights) over
 * the cooked weight. Cooking changes the weight (water in or out) and keeps the nutrients, apart
 * from the losses a retention factor gives (1 = none lost), applied per nutrient where the data has
 * one. A nutrient unknown for any ingredient is unknown for the dish.
 */
export function recipePer100g(
  ingredients: readonly Ingredient[],
  cookedGrams: number,
  retention: Partial<Record<NutrientKey, number>> = {},
): Nutrients {
  if (!(cookedGrams > 0)) throw new RangeError('The cooked weight must be more than 0 g');
  const total = sumNutrients(ingredients.map((i) => nutrientsIn(i.per100g, i.grams)));
  const out: Nutrients = {};
  for (const key of NUTRIENT_KEYS) {
    const v = total.values[key];
    if (v === undefined || total.missing[key]) continue;
    out[key] = ((v * (retention[key] ?? 1)) / cookedGrams) * 100;
  }
  return out;
}

/** The share of a target reached (0.8 = 80 %), or null without a target. */
export function shareOf(value: number | undefined, target: number | undefined): number | null {
  if (target === undefined || !(target > 0)) return null;
  return (value ?? 0) / target;
}

/**
 * How a day stands against a target: below LOW_SHARE of it is "under", above HIGH_SHARE "over"
 * (energy and sodium above target matter; protein above target rarely does, but the dietitian
 * reads the mark, the app decides nothing).
 */
export const LOW_SHARE = 0.8;
export const HIGH_SHARE = 1.2;
export function standing(share: number | null): 'under' | 'within' | 'over' | null {
  if (share === null) return null;
  if (share < LOW_SHARE) return 'under';
  if (share > HIGH_SHARE) return 'over';
  return 'within';
}
