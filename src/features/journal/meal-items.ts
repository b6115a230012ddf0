import type { MealItem, MealItemInput } from '../../../server/journal/schema';
import { nutrientsIn, sumNutrients, type Total } from '../../../server/nutrition/compute';
import { defaultPortions } from '../../../server/nutrition/groups';
import { gramsOf, MEASURES, type Measure, parseQuantity, type Portion, quantityText } from '../../../server/nutrition/measures';
import type { FoodSummary } from '../../../server/nutrition/schema';

/**
 * The foods of a meal while it is being written (the client's form, the dietitian's estimate):
 * each food with the quantity as typed ("1½ katori", "150 g"), read with the server's own
 * parser and portions, so what the screen adds up is what the server will store.
 */
export type DraftItem = { key: string; foodId: number; name: string; nameHi: string | null; text: string };

let nextKey = 0;
const newKey = () => `item-${nextKey++}`;

/** A food's portions as the server reads them: its own, else its group's starting ones. */
export const portionsOf = (food: FoodSummary): Portion[] => (food.portions.length ? food.portions : defaultPortions(food.group));

/** A food just picked: one of its first household measure (a recipe's serving, a roti, a katori), else 100 g. */
export function draftOf(food: FoodSummary): DraftItem {
  const first = portionsOf(food)[0];
  return { key: newKey(), foodId: food.id, name: food.name, nameHi: food.nameHi, text: first ? quantityText(1, first.unit) : '100 g' };
}

/** A saved meal's foods, to edit or copy. */
export const draftsOf = (items: readonly MealItem[]): DraftItem[] =>
  items.map((i) => ({ key: newKey(), foodId: i.foodId, name: i.name, nameHi: i.nameHi, text: quantityText(i.quantity, i.unit) }));

export type ReadItem = { quantity: number; unit: Measure; grams: number } | { error: string };

/** The quantity typed for a food, in grams; an error a person can act on when it is not one. */
export function readItem(item: DraftItem, food: FoodSummary | undefined): ReadItem {
  const parsed = parseQuantity(item.text);
  if (!parsed) return { error: 'Write a quantity such as 1½ katori, 2 roti or 150 g' };
  if (!food) return { ...parsed, grams: Number.NaN };
  const portions = portionsOf(food);
  const grams = gramsOf(parsed.quantity, parsed.unit, portions);
  if (grams === null) {
    const units = [...portions.map((p) => MEASURES[p.unit].one), 'g'].join(', ');
    return { error: `${food.name} is measured in ${units}` };
  }
  return { ...parsed, grams };
}

/** The items as the API takes them, or null while one of them is not a quantity. */
export function itemsInput(items: readonly DraftItem[], foods: ReadonlyMap<number, FoodSummary>): MealItemInput[] | null {
  const out: MealItemInput[] = [];
  for (const item of items) {
    const read = readItem(item, foods.get(item.foodId));
    if ('error' in read) return null;
    out.push({ foodId: item.foodId, quantity: read.quantity, unit: read.unit });
  }
  return out;
}

/** What the foods add up to, as the server will add them (compute.ts). */
export function draftTotal(items: readonly DraftItem[], foods: ReadonlyMap<number, FoodSummary>): Total {
  return sumNutrients(
    items.flatMap((item) => {
      const food = foods.get(item.foodId);
      const read = readItem(item, food);
      return food && !('error' in read) ? [nutrientsIn(food.per100g, read.grams)] : [];
    }),
  );
}

/** "2 rotis, 1 katori dal": a meal's foods in a line (the offline list, a meal without words). */
export const itemsLine = (items: readonly { name: string; quantity: number; unit: Measure }[]) =>
  items.map((i) => `${quantityText(i.quantity, i.unit)} ${i.name}`).join(', ');
