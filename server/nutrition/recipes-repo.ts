import type { Db } from '../db/index.js';

/** The foods a recipe is made of, as they stand: kind, archived or not, values per 100 g. */
export function ingredientFoods(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('foods')
    .select(['id', 'kind', 'name', 'per_100g', 'archived_at'])
    .where('id', 'in', [...ids])
    .execute();
}

/** Replaces a recipe's ingredients with these, in this order. */
export async function replaceIngredients(trx: Db, recipeId: number, ingredients: readonly { foodId: number; grams: number }[]) {
  await trx.deleteFrom('recipe_ingredients').where('recipe_id', '=', recipeId).execute();
  await trx
    .insertInto('recipe_ingredients')
    .values(ingredients.map((i, position) => ({ recipe_id: recipeId, position, food_id: i.foodId, grams: i.grams })))
    .execute();
}

/** A recipe's ingredients by raw weight, in order. */
export function ingredientsOf(db: Db, recipeId: number) {
  return db.selectFrom('recipe_ingredients').select(['food_id', 'grams']).where('recipe_id', '=', recipeId).orderBy('position').execute();
}

/** Writes what a recipe's ingredients and weights give: its values per 100 g and its weights. */
export async function setRecipeValues(
  trx: Db,
  recipeId: number,
  values: { per100g: Record<string, number>; cookedGrams: number; servingGrams: number },
  now: Date,
) {
  await trx
    .updateTable('foods')
    .set({
      per_100g: JSON.stringify(values.per100g),
      cooked_grams: values.cookedGrams,
      serving_grams: values.servingGrams,
      updated_at: now,
    })
    .where('id', '=', recipeId)
    .where('kind', '=', 'recipe')
    .execute();
}

/** A recipe's row locked for the change (kind, weights). */
export function lockRecipe(trx: Db, id: number) {
  return trx
    .selectFrom('foods')
    .select(['id', 'kind', 'name', 'cooked_grams', 'serving_grams'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** The recipes a food is an ingredient of, by name. */
export function recipesUsing(db: Db, foodId: number) {
  return db
    .selectFrom('recipe_ingredients as r')
    .innerJoin('foods as f', 'f.id', 'r.recipe_id')
    .select(['f.id', 'f.name', 'f.archived_at'])
    .where('r.food_id', '=', foodId)
    .orderBy('f.name')
    .execute();
}

/** The recipe ids that use any of these foods (to recompute when their values change). */
export async function recipeIdsUsing(db: Db, foodIds: readonly number[]): Promise<number[]> {
  if (foodIds.length === 0) return [];
  const rows = await db
    .selectFrom('recipe_ingredients')
    .select('recipe_id')
    .distinct()
    .where('food_id', 'in', [...foodIds])
    .execute();
  return rows.map((r) => r.recipe_id);
}

/** Food ids by their id at a source (IFCT codes, a demo recipe's reference). */
export async function foodIdsBySourceRef(
  db: Db,
  source: 'ifct2017' | 'csv' | 'clinic',
  refs: readonly string[],
): Promise<Map<string, number>> {
  if (refs.length === 0) return new Map();
  const rows = await db
    .selectFrom('foods')
    .select(['id', 'source_ref'])
    .where('source', '=', source)
    .where('source_ref', 'in', [...refs])
    .execute();
  return new Map(rows.map((r) => [r.source_ref as string, r.id]));
}
