import type { z } from 'zod';
import { changedFields, recordAudit } from '../audit/record.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { badRequest, notFound } from '../errors.js';
import { nutrientsIn } from './compute.js';
import { getFood } from './foods-service.js';
import { saveFood, updateFood as writeFoodFields } from './foods-write.js';
import { round } from './nutrients.js';
import type { createRecipeInput, RecipeView, updateRecipeInput } from './recipes-schema.js';
import * as repo from './recipes-repo.js';
import { dishValues, tidy } from './recipes-values.js';

/**
 * A clinic's recipes: adding, changing and reading them. A recipe is a food of kind 'recipe' whose
 * values per 100 g follow from its ingredients (raw weights) and cooked weight (recipes-values.ts),
 * recomputed whenever any of them changes.
 */

type Actor = Pick<SessionUser, 'id' | 'email'>;

/** A recipe with its ingredients and what its weights give; 404 for a food that is not a recipe. */
export async function getRecipe(db: Db, id: number): Promise<RecipeView> {
  const food = await getFood(db, id);
  if (food.kind !== 'recipe' || food.cookedGrams === null) throw notFound(`There is no recipe with id ${id}.`);
  const rawGrams = food.ingredients.reduce((sum, i) => sum + i.grams, 0);
  const serving = food.servingGrams ?? food.cookedGrams;
  return {
    ...food,
    rawGrams,
    yieldFactor: rawGrams > 0 ? round(food.cookedGrams / rawGrams, 3) : 0,
    perServing: tidy(nutrientsIn(food.per100g, serving)),
  };
}

const audited = (r: RecipeView) => ({
  name: r.name,
  nameHi: r.nameHi,
  group: r.group,
  ingredients: r.ingredients.map((i) => `${i.name} ${i.grams} g`),
  cookedGrams: r.cookedGrams,
  servingGrams: r.servingGrams,
});

/**
 * Stores a recipe: its row in `foods` (through saveFood, the one write path for a food: names,
 * portions, the sanity rules) with the values its ingredients give, and its ingredients. The id.
 */
export async function saveRecipe(
  db: Db,
  input: z.output<typeof createRecipeInput>,
  opts: { now: Date; createdBy: number | null; sourceRef?: string },
): Promise<number> {
  const work = async (trx: Db) => {
    const per100g = await dishValues(trx, input.ingredients, input.cookedGrams);
    const { id } = await saveFood(
      trx,
      {
        name: input.name,
        nameHi: input.nameHi,
        aliases: input.aliases,
        group: input.group,
        per100g,
        portions: input.portions,
        source: 'clinic',
        sourceRef: opts.sourceRef ?? null,
        createdBy: opts.createdBy,
        recipe: { cookedGrams: input.cookedGrams, servingGrams: input.servingGrams },
      },
      { now: opts.now },
    );
    await repo.replaceIngredients(trx, id, input.ingredients);
    return id;
  };
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/** `POST /api/recipes` (dietitians): the recipe, its ingredients and its computed values, audited. */
export async function createRecipe(db: Db, actor: Actor, input: z.output<typeof createRecipeInput>, now: Date): Promise<RecipeView> {
  return db.transaction().execute(async (trx) => {
    const id = await saveRecipe(trx, input, { now, createdBy: actor.id });
    const recipe = await getRecipe(trx, id);
    await recordAudit(trx, actor, {
      action: 'recipe.created',
      entity: 'food',
      entityId: id,
      summary: `Added the recipe “${recipe.name}” (${recipe.ingredients.length} ingredients, ${recipe.cookedGrams} g cooked)`,
      details: audited(recipe),
    });
    return recipe;
  });
}

/** `PATCH /api/recipes/{id}` (dietitians): changes what is sent and recomputes the values, audited. */
export async function updateRecipe(db: Db, actor: Actor, input: z.output<typeof updateRecipeInput>, now: Date): Promise<RecipeView> {
  return db.transaction().execute(async (trx) => {
    const row = await repo.lockRecipe(trx, input.id);
    if (row?.kind !== 'recipe') throw notFound(`There is no recipe with id ${input.id}.`);
    const before = await getRecipe(trx, input.id);
    const cookedGrams = input.cookedGrams ?? row.cooked_grams!;
    const servingGrams = input.servingGrams ?? row.serving_grams ?? cookedGrams;
    if (servingGrams > cookedGrams) {
      throw badRequest('A serving cannot weigh more than the whole cooked dish', {
        servingGrams: ['A serving cannot weigh more than the whole cooked dish'],
      });
    }
    const current = await repo.ingredientsOf(trx, input.id);
    const ingredients = input.ingredients ?? current.map((i) => ({ foodId: i.food_id, grams: i.grams }));
    // A food archived since it went into the recipe may stay in it; it cannot be added anew.
    const kept = new Set(current.map((i) => i.food_id));
    const per100g = await dishValues(trx, ingredients, cookedGrams, { allowArchived: kept });
    if (input.name !== undefined || input.nameHi !== undefined || input.aliases !== undefined || input.group !== undefined) {
      await writeFoodFields(
        trx,
        { id: input.id, name: input.name, nameHi: input.nameHi, aliases: input.aliases, group: input.group },
        { now },
      );
    }
    if (input.ingredients) await repo.replaceIngredients(trx, input.id, ingredients);
    await repo.setRecipeValues(trx, input.id, { per100g, cookedGrams, servingGrams }, now);
    const after = await getRecipe(trx, input.id);
    const changes = changedFields(audited(before), audited(after));
    await recordAudit(trx, actor, {
      action: 'recipe.updated',
      entity: 'food',
      entityId: input.id,
      summary: `Changed the recipe “${after.name}”${Object.keys(changes).length > 0 ? ` (${Object.keys(changes).join(', ')})` : ' (nothing differed)'}`,
      details: changes,
    });
    return after;
  });
}
