import type { Db } from '../db/index.js';
import { badRequest } from '../errors.js';
import { MEASURES } from '../nutrition/measures.js';
import type { NutrientKey, Nutrients } from '../nutrition/nutrients.js';
import { foodsByIds } from '../nutrition/search.js';
import { findTargets } from '../nutrition/targets-repo.js';
import { shownNutrients } from '../nutrition/targets-schema.js';
import { itemGrams, linkedFoodIds, type PlanFood } from './nutrition.js';
import type { PlanDay } from './schema.js';

/** The foods a plan links to, by id (values per 100 g and household portions). */
export async function planFoods(db: Db, days: readonly Pick<PlanDay, 'meals'>[]): Promise<Map<number, PlanFood>> {
  return new Map((await foodsByIds(db, linkedFoodIds(days))).map((f) => [f.id, f]));
}

/**
 * The foods of a plan being saved, checked: every linked food exists, and every linked item can be
 * weighed (the food has grams for its measure, or the dietitian wrote them). Each problem is a 400
 * naming the day, the meal and the field, so the builder shows it beside the item.
 */
export async function checkedPlanFoods(db: Db, days: readonly PlanDay[]): Promise<Map<number, PlanFood>> {
  const foods = await planFoods(db, days);
  const fieldErrors: Record<string, string[]> = {};
  for (const [d, day] of days.entries()) {
    for (const [m, meal] of day.meals.entries()) {
      for (const [i, item] of meal.items.entries()) {
        if (item.foodId === undefined) continue;
        const path = `days.${d}.meals.${m}.items.${i}`;
        const where = `${day.label}, ${meal.name}`;
        const food = foods.get(item.foodId);
        if (!food) {
          fieldErrors[`${path}.foodId`] = [
            `${where}: “${item.food}” is linked to a food that is no longer in the library. Choose the food again.`,
          ];
        } else if (itemGrams(item.portion, food) === null) {
          const unit = MEASURES[item.portion.unit].one;
          const has = [...food.portions.map((p) => p.unit), 'g'].join(', ');
          fieldErrors[`${path}.portion.grams`] = [
            `${where}: ${food.name} has no weight for a ${unit}. Give the grams, or choose a measure it has (${has}).`,
          ];
        }
      }
    }
  }
  const first = Object.values(fieldErrors)[0]?.[0];
  if (first) throw badRequest(first, fieldErrors);
  return foods;
}

/** The nutrients a plan's totals list for a client (the headline five, then those with a target), and whether the client sees numbers. */
export async function totalsNutrientsFor(db: Db, clientId: number): Promise<{ keys: NutrientKey[]; showNumbers: boolean }> {
  const row = await findTargets(db, clientId);
  return { keys: shownNutrients((row?.targets ?? null) as Nutrients | null), showNumbers: row?.show_numbers ?? true };
}
