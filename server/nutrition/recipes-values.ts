import type { Db } from '../db/index.js';
import { badRequest, conflict } from '../errors.js';
import { recipePer100g } from './compute.js';
import { type Nutrients, round } from './nutrients.js';
import * as repo from './recipes-repo.js';
import { storedNutrients } from './search.js';

/**
 * What a recipe's values are, from its ingredients as the library has them now, and the rules that
 * keep them right when the library changes: a food's new values flow into the recipes that use it,
 * and a food in use is not archived silently. No retention factors are applied: the food tables we
 * load (IFCT 2017) carry none, so cooking changes the weight and keeps the nutrients (compute.ts's
 * recipePer100g takes factors should a source bring them). The food library's service calls the
 * last two; nothing here imports it.
 */

type Ingredient = { foodId: number; grams: number };

/** Stored values carry the precision of a food table (3 decimals), not float noise. */
export const tidy = (values: Nutrients): Nutrients => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, round(v, 3)]));

/**
 * The dish's values per 100 g from its ingredients as the library has them now. Every ingredient
 * must be a food (not another recipe: a dish of dishes would hide its raw weights) that is in the
 * library and not archived; and the cooked dish cannot weigh less than its solids.
 */
export async function dishValues(
  db: Db,
  ingredients: readonly Ingredient[],
  cookedGrams: number,
  opts: { allowArchived?: ReadonlySet<number> } = {},
) {
  const foods = new Map(
    (
      await repo.ingredientFoods(
        db,
        ingredients.map((i) => i.foodId),
      )
    ).map((f) => [f.id, f]),
  );
  const problems: Record<string, string[]> = {};
  ingredients.forEach((i, n) => {
    const food = foods.get(i.foodId);
    const field = `ingredients.${n}.foodId`;
    if (!food) problems[field] = [`There is no food with id ${i.foodId}`];
    else if (food.kind === 'recipe') problems[field] = [`“${food.name}” is a recipe: add its foods instead`];
    else if (food.archived_at && !opts.allowArchived?.has(food.id))
      problems[field] = [`“${food.name}” is archived: restore it or choose another food`];
  });
  if (Object.keys(problems).length > 0) throw badRequest(Object.values(problems).flat().join('; '), problems);
  const parts = ingredients.map((i) => ({ per100g: storedNutrients(foods.get(i.foodId)!.per_100g), grams: i.grams }));
  const solids = parts.reduce((sum, p) => {
    const v = p.per100g;
    return sum + (((v.proteinG ?? 0) + (v.carbohydrateG ?? 0) + (v.fatG ?? 0) + (v.fibreG ?? 0)) * p.grams) / 100;
  }, 0);
  if (solids > cookedGrams) {
    const message = `The cooked weight (${cookedGrams} g) is less than the protein, carbohydrate, fat and fibre of the ingredients (${Math.round(solids)} g): weigh the cooked dish again`;
    throw badRequest(message, { cookedGrams: [message] });
  }
  return tidy(recipePer100g(parts, cookedGrams));
}

/**
 * Recomputes the recipes that use any of these foods, after their values changed (a dietitian's
 * edit, a re-import), in the caller's transaction. Returns the ids recomputed.
 */
export async function recomputeRecipesUsing(trx: Db, foodIds: readonly number[], now: Date): Promise<number[]> {
  const ids = await repo.recipeIdsUsing(trx, foodIds);
  for (const id of ids) {
    const row = await repo.lockRecipe(trx, id);
    if (!row || row.cooked_grams === null) continue;
    const ingredients = (await repo.ingredientsOf(trx, id)).map((i) => ({ foodId: i.food_id, grams: i.grams }));
    const per100g = await dishValues(trx, ingredients, row.cooked_grams, { allowArchived: new Set(ingredients.map((i) => i.foodId)) });
    await repo.setRecipeValues(
      trx,
      id,
      { per100g, cookedGrams: row.cooked_grams, servingGrams: row.serving_grams ?? row.cooked_grams },
      now,
    );
  }
  return ids;
}

/**
 * A food in use by recipes is not archived silently: 409 naming the recipes (the dietitian
 * changes them first, or archives them too). Archived recipes do not count.
 */
export async function assertNotInRecipes(db: Db, foodId: number): Promise<void> {
  const using = (await repo.recipesUsing(db, foodId)).filter((r) => r.archived_at === null);
  if (using.length === 0) return;
  const names = using.map((r) => `“${r.name}”`).join(', ');
  throw conflict(
    `This food is an ingredient of ${using.length === 1 ? 'the recipe' : 'the recipes'} ${names}: take it out of ${using.length === 1 ? 'that recipe' : 'them'} (or archive ${using.length === 1 ? 'it' : 'them'}) first.`,
  );
}

/** The recipes a food is in (the console shows them beside Archive). */
export async function recipesOf(db: Db, foodId: number) {
  return (await repo.recipesUsing(db, foodId)).map((r) => ({ id: r.id, name: r.name, archived: r.archived_at !== null }));
}
