import { ROLE } from '../auth/roles.js';
import type { Db } from '../db/index.js';
import { unprocessable } from '../errors.js';
import { nutrientsIn, sumNutrients } from '../nutrition/compute.js';
import * as nutritionRepo from '../nutrition/days-repo.js';
import { foodsByIds, noteFoodUse, storedNutrients } from '../nutrition/search.js';
import type { NutrientTotal } from '../nutrition/days-schema.js';
import { defaultPortions } from '../nutrition/groups.js';
import { gramsOf, MEASURES, type Measure, type Portion } from '../nutrition/measures.js';
import type { FoodSummary } from '../nutrition/schema.js';
import type { MealItem, MealItemInput } from './schema.js';

/**
 * The foods of a journal meal: a quantity in a household measure or grams, turned into grams with
 * the food's own portions when the meal is saved (so a later edit of a katori does not rewrite what
 * was eaten), and added up whenever it is read.
 */

/** A food's portions: its own rows, else its group's starting ones. */
export function portionsOf(food: FoodSummary): Portion[] {
  return food.portions.length ? food.portions : defaultPortions(food.group);
}

const MAX_ITEM_GRAMS = 5000;

/**
 * Items as they are stored: each food known, each measure one the food has, grams worked out. A food
 * retired from the library since it was picked still counts (a meal queued offline keeps its foods).
 */
export async function resolveItems(db: Db, items: readonly MealItemInput[]) {
  const foods = new Map(
    (
      await foodsByIds(
        db,
        items.map((i) => i.foodId),
      )
    ).map((f) => [f.id, f]),
  );
  return items.map((item, i) => {
    const food = foods.get(item.foodId);
    if (!food) {
      const message = `Food #${item.foodId} is not in the food library (it may have been removed): search for the food again and add it.`;
      throw unprocessable(message, { [`items.${i}.foodId`]: [message] });
    }
    const portions = portionsOf(food);
    const grams = gramsOf(item.quantity, item.unit, portions);
    if (grams === null) {
      const choices = [...portions.map((p) => MEASURES[p.unit].one), 'g'].join(', ');
      const message = `${food.name} has no “${MEASURES[item.unit as Measure].one}” measure: use one of ${choices}.`;
      throw unprocessable(message, { [`items.${i}.unit`]: [message] });
    }
    if (grams > MAX_ITEM_GRAMS) {
      const message = `${item.quantity} ${MEASURES[item.unit].many} of ${food.name} is ${Math.round(grams)} g, more than the ${MAX_ITEM_GRAMS / 1000} kg one food of a meal can be: check the quantity.`;
      throw unprocessable(message, { [`items.${i}.quantity`]: [message] });
    }
    return { food_id: food.id, quantity: item.quantity, unit: item.unit, grams };
  });
}

export type StoredItem = Awaited<ReturnType<typeof resolveItems>>[number];

/** Stores a meal's foods in place of those it had, each counted a use by whoever chose them (their search puts them first). */
export async function saveItems(trx: Db, entryId: number, items: readonly StoredItem[], by: number, now: Date) {
  await nutritionRepo.replaceItems(trx, entryId, items, by, now);
  if (items.length)
    await noteFoodUse(
      trx,
      by,
      items.map((i) => i.food_id),
      now,
    );
}

export type EntryFoods = { items: MealItem[]; totals: NutrientTotal | null };

/** Each entry's foods and their sum; nutrient numbers only for the entries whose client's numbers this reader sees. */
export async function foodsOfEntries(db: Db, entryIds: readonly number[], numbersShown: (entryId: number) => boolean) {
  const rows = await nutritionRepo.itemsOfEntries(db, entryIds);
  const out = new Map<number, EntryFoods>();
  for (const id of entryIds) {
    const own = rows.filter((r) => r.entry_id === id);
    const shown = numbersShown(id);
    const nutrients = own.map((r) => nutrientsIn(storedNutrients(r.per_100g), r.grams));
    out.set(id, {
      items: own.map((r, i) => ({
        foodId: r.food_id,
        name: r.name,
        nameHi: r.name_hi,
        kind: r.kind,
        quantity: r.quantity,
        unit: r.unit as Measure,
        grams: r.grams,
        nutrients: shown ? nutrients[i]! : null,
        byDietitian: r.added_by_role === ROLE.admin,
      })),
      totals: shown && own.length ? sumNutrients(nutrients) : null,
    });
  }
  return out;
}

/** The items a repeat of a create carries, as comparable text (a repeat with other foods is another request). */
export const itemsKey = (items: readonly { foodId: number; quantity: number; unit: string }[]) =>
  JSON.stringify(items.map((i) => [i.foodId, i.quantity, i.unit]));
