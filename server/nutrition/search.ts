import type { Db } from '../db/index.js';
import * as repo from './foods-repo.js';
import { searchText } from './foods-schema.js';
import { FOOD_GROUP_KEYS, type FoodGroup } from './groups.js';
import { MEASURE_KEYS, type HouseholdMeasure } from './measures.js';
import { NUTRIENT_KEYS, type Nutrients } from './nutrients.js';
import type { FoodSummary } from './schema.js';

/**
 * Finding foods: by any name or alias (English, Devanagari, a transliteration), typo-tolerant,
 * ranked exact, then prefix, then the person's own recent and frequent foods, then similarity
 * (the statement is foods-repo.ts's searchFoodsQuery). Every list of foods answers FoodSummary.
 */

export async function searchFoods(db: Db, userId: number | null, q: string, limit: number): Promise<FoodSummary[]> {
  const text = searchText(q);
  if (text === '') return userId === null ? [] : recentFoods(db, userId, limit);
  return (await repo.searchFoods(db, text, userId, limit)).map(toSummary);
}

export async function recentFoods(db: Db, userId: number, limit: number): Promise<FoodSummary[]> {
  return (await repo.recentFoods(db, userId, limit)).map(toSummary);
}

/** Foods by id in the order asked, archived ones included; ids that are no food are left out. */
export async function foodsByIds(db: Db, ids: readonly number[]): Promise<FoodSummary[]> {
  const unique = [...new Set(ids)];
  const byId = new Map((await repo.foodsByIds(db, unique)).map((row) => [row.id, toSummary(row)]));
  return unique.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Counts one use of each food by this person (a plan item or a meal item saved), so their search
 * puts these foods first. Call it with the transaction that saves the items.
 */
export function noteFoodUse(db: Db, userId: number, foodIds: readonly number[], now?: Date): Promise<void> {
  return repo.noteFoodUses(db, userId, foodIds, now);
}

const GROUPS = new Set<string>(FOOD_GROUP_KEYS);
const HOUSEHOLD = new Set<string>(MEASURE_KEYS.filter((k) => k !== 'g' && k !== 'ml'));

/** The nutrients a stored row holds, keeping only the known keys with numbers (the API's strict shape). */
export function storedNutrients(raw: Record<string, unknown> | null): Nutrients {
  const out: Nutrients = {};
  if (!raw) return out;
  for (const key of NUTRIENT_KEYS) {
    const v = raw[key];
    if (typeof v === 'number' && Number.isFinite(v)) out[key] = v;
  }
  return out;
}

export function toSummary(row: repo.SummaryRow): FoodSummary {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    nameHi: row.name_hi,
    group: (GROUPS.has(row.food_group) ? row.food_group : 'miscellaneous') as FoodGroup,
    source: row.source,
    per100g: storedNutrients(row.per_100g),
    portions: row.portions.filter((p) => HOUSEHOLD.has(p.unit)).map((p) => ({ unit: p.unit as HouseholdMeasure, grams: p.grams })),
    servingGrams: row.serving_grams,
  };
}
