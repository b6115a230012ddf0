import { z } from 'zod';
import { addTotals, nutrientsIn, sumNutrients, type Total } from '../nutrition/compute.js';
import { gramsOf, type Measure, type Portion as FoodPortion } from '../nutrition/measures.js';
import type { Nutrients } from '../nutrition/nutrients.js';
import { nutrientAmounts } from '../nutrition/schema.js';

/**
 * What a plan adds up to: each linked item's grams and nutrients, each meal's and each day's totals.
 * One computation for the builder (live, in the browser, from the foods it has fetched), the plan's
 * read (REST and tRPC) and the PDF, so the three agree to the gram. Free-text items add nothing and
 * are counted as `unlinked`. Browser-safe.
 */

/** What the sums read of a plan's item (schema.ts's MealItem): the food it links to, if any, and its portion. */
export type PlannedPortion = { quantity: number; unit: Measure; grams?: number; ml?: number };
export type PlannedItem = { foodId?: number; portion: PlannedPortion };
type PlannedDay = { meals: readonly { items: readonly PlannedItem[] }[] };

/** What the sums need of a food: its values per 100 g and its household portions. */
export type PlanFood = { id: number; name: string; per100g: Nutrients; portions: readonly FoodPortion[] };

/**
 * The grams an item weighs: the dietitian's weighed grams first; else a portion given in grams or
 * millilitres (ml counts as grams, as in measures.ts); else the food's own measure (gramsOf); else the
 * millilitres written beside a household measure. Null when none says (the food has no such measure).
 */
export function itemGrams(portion: PlannedPortion, food: PlanFood | undefined): number | null {
  // The builder sums while the dietitian types: a half-typed number weighs nothing yet.
  if (portion.grams !== undefined) return portion.grams > 0 ? portion.grams : null;
  if (!(portion.quantity > 0) || !Number.isFinite(portion.quantity)) return null;
  if (portion.unit === 'g' || portion.unit === 'ml') return portion.quantity;
  const fromFood = food ? gramsOf(portion.quantity, portion.unit, food.portions) : null;
  return fromFood ?? portion.ml ?? null;
}

export type ItemAnalysis = { grams: number | null; nutrients: Nutrients | null };
/** A sum, with how many of its items are free text or could not be weighed (they add nothing). */
export type PlanTotal = Total & { unlinked: number };
export type MealAnalysis = { items: ItemAnalysis[]; total: PlanTotal };
export type DayAnalysis = { meals: MealAnalysis[]; total: PlanTotal };

export function analyseItem(item: PlannedItem, foods: ReadonlyMap<number, PlanFood>): ItemAnalysis {
  const food = item.foodId === undefined ? undefined : foods.get(item.foodId);
  if (!food) return { grams: itemGrams(item.portion, undefined), nutrients: null };
  const grams = itemGrams(item.portion, food);
  return { grams, nutrients: grams === null ? null : nutrientsIn(food.per100g, grams) };
}

export function analyseMeal(meal: { items: readonly PlannedItem[] }, foods: ReadonlyMap<number, PlanFood>): MealAnalysis {
  const items = meal.items.map((item) => analyseItem(item, foods));
  const known = items.flatMap((i) => (i.nutrients ? [i.nutrients] : []));
  return { items, total: { ...sumNutrients(known), unlinked: items.length - known.length } };
}

export function analyseDay(day: PlannedDay, foods: ReadonlyMap<number, PlanFood>): DayAnalysis {
  const meals = day.meals.map((meal) => analyseMeal(meal, foods));
  const total = addTotals(meals.map((m) => m.total));
  return { meals, total: { ...total, unlinked: meals.reduce((n, m) => n + m.total.unlinked, 0) } };
}

export function analysePlan(days: readonly PlannedDay[], foods: ReadonlyMap<number, PlanFood>): DayAnalysis[] {
  return days.map((day) => analyseDay(day, foods));
}

/** The food ids a plan links to, each once. */
export function linkedFoodIds(days: readonly PlannedDay[]): number[] {
  return [...new Set(days.flatMap((d) => d.meals.flatMap((m) => m.items.flatMap((i) => (i.foodId === undefined ? [] : [i.foodId])))))];
}

/* The shapes the plan's read answers with (REST and tRPC). */

export const planTotalView = z.object({
  /** Summed amounts of the items that know each nutrient, unrounded. */
  values: nutrientAmounts,
  /** Per nutrient, how many linked items did not know it (so the sum may be low). */
  missing: nutrientAmounts,
  /** Linked items summed. */
  items: z.number().int(),
  /** Items that add nothing: free text, or a measure the food has no grams for. */
  unlinked: z.number().int(),
});
export const itemAnalysisView = z.object({ grams: z.number().nullable(), nutrients: nutrientAmounts.nullable() });

/** A day's (or meal's) total as answered: rounded nothing, so a reader may add items and compare. */
const mealView = z.object({
  time: z.string(),
  name: z.string(),
  notes: z.string().nullable(),
  items: z.array(
    z.object({
      food: z.string(),
      /** The linked food or recipe; absent for a free-text item. */
      foodId: z.number().int().optional(),
      portion: z.object({ quantity: z.number(), unit: z.string(), grams: z.number().optional(), ml: z.number().optional() }),
      /** The portion as printed ('2 rotis (60 g)'). */
      portionText: z.string(),
      ...itemAnalysisView.shape,
    }),
  ),
  total: planTotalView.nullable(),
});

/** dietPlan.get and GET /api/diet-plans/{id}: a plan with what each item, meal and day adds up to. */
export const dietPlanView = z.object({
  id: z.number().int(),
  clientId: z.number().int(),
  title: z.string(),
  from: z.string(),
  to: z.string(),
  version: z.number().int(),
  source: z.enum(['upload', 'composed']),
  /** Whether the plan's PDF prints each day's totals. */
  showTotals: z.boolean(),
  /** False when the client's dietitian hides nutrient numbers from them: grams, nutrients and totals are then null. */
  numbers: z.boolean(),
  /** The nutrients a total lists for this client: the headline five, then those with a target. */
  nutrients: z.array(z.string()),
  /** The composed days (null for an uploaded PDF). */
  days: z.array(z.object({ label: z.string(), meals: z.array(mealView), total: planTotalView.nullable() })).nullable(),
  guidelines: z.array(z.string()),
  /** A short-lived signed link that opens the PDF. */
  pdfURL: z.string(),
});
export type DietPlanView = z.infer<typeof dietPlanView>;
