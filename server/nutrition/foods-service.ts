import type { z } from 'zod';
import { changedFields, recordAudit } from '../audit/record.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { notFound } from '../errors.js';
import * as repo from './foods-repo.js';
import type { FoodDetail, archiveFoodInput, consoleListInput, createFoodInput, setPortionsInput, updateFoodInput } from './foods-schema.js';
import { saveFood, updateFood as writeFood } from './foods-write.js';
import { assertNotInRecipes, recomputeRecipesUsing } from './recipes-values.js';
import type { FoodSummary } from './schema.js';
import { searchFoods, storedNutrients, toSummary } from './search.js';

/**
 * Reading one food, and the dietitian's changes to the library (console and REST): each change
 * goes through foods-write.ts (the sanity rules, names, portions) and leaves an audit entry in the
 * same transaction.
 */

type Actor = Pick<SessionUser, 'id' | 'email'>;

const noSuchFood = (id: number) => notFound(`There is no food with id ${id}.`);

/** One food with every name it is found by and, for a recipe, its ingredients (archived foods too: plans keep them). */
export async function getFood(db: Db, id: number): Promise<FoodDetail> {
  const food = await repo.findFood(db, id);
  if (!food) throw noSuchFood(id);
  const [names, portions, ingredients] = await Promise.all([
    repo.foodNames(db, id),
    repo.foodPortions(db, id),
    food.kind === 'recipe' ? repo.recipeIngredients(db, id) : Promise.resolve([]),
  ]);
  const shown = new Set([food.name.toLowerCase(), food.name_hi?.toLowerCase()]);
  return {
    ...toSummary({ ...food, per_100g: storedNutrients(food.per_100g), portions }),
    aliases: names.filter((n) => !shown.has(n.name.toLowerCase())).map((n) => n.name),
    sourceRef: food.source_ref,
    archived: food.archived_at !== null,
    cookedGrams: food.cooked_grams,
    ingredients: ingredients.map((i) => ({ foodId: i.food_id, name: i.name, nameHi: i.name_hi, grams: i.grams })),
    updatedAt: food.updated_at,
  };
}

/** The console's list: the search's answer for a query, else the latest edited foods (archived ones when asked). */
export async function listForConsole(
  db: Db,
  actor: Actor,
  input: z.output<typeof consoleListInput>,
): Promise<(FoodSummary & { archived: boolean })[]> {
  if (input.q.trim() !== '') return (await searchFoods(db, actor.id, input.q, input.limit)).map((f) => ({ ...f, archived: false }));
  return (await repo.latestFoods(db, input.includeArchived, input.limit)).map((row) => ({ ...toSummary(row), archived: row.archived }));
}

/** The fields an audit entry compares. */
const audited = (f: FoodDetail) => ({
  name: f.name,
  nameHi: f.nameHi,
  aliases: f.aliases,
  group: f.group,
  per100g: f.per100g,
  portions: f.portions,
});

export async function createFood(db: Db, actor: Actor, input: z.output<typeof createFoodInput>, now: Date): Promise<FoodDetail> {
  return db.transaction().execute(async (trx) => {
    const { id } = await saveFood(trx, { ...input, source: 'clinic', createdBy: actor.id }, { now });
    const food = await getFood(trx, id);
    await recordAudit(trx, actor, {
      action: 'food.created',
      entity: 'food',
      entityId: id,
      summary: `Added the food “${food.name}” to the library`,
      details: audited(food),
    });
    return food;
  });
}

export async function updateFood(db: Db, actor: Actor, input: z.output<typeof updateFoodInput>, now: Date): Promise<FoodDetail> {
  return db.transaction().execute(async (trx) => {
    if (!(await repo.lockFood(trx, input.id))) throw noSuchFood(input.id);
    const before = await getFood(trx, input.id);
    await writeFood(trx, input, { now });
    // Recipes made with this food take its new values.
    if (input.per100g) await recomputeRecipesUsing(trx, [input.id], now);
    const after = await getFood(trx, input.id);
    const changes = changedFields(audited(before), audited(after));
    await recordAudit(trx, actor, {
      action: 'food.updated',
      entity: 'food',
      entityId: input.id,
      summary: `Changed the food “${after.name}”${Object.keys(changes).length > 0 ? ` (${Object.keys(changes).join(', ')})` : ' (nothing differed)'}`,
      details: changes,
    });
    return after;
  });
}

/** Archived foods leave search and pickers; plans and meals that use them keep them. */
export async function archiveFood(db: Db, actor: Actor, input: z.output<typeof archiveFoodInput>, now: Date): Promise<FoodDetail> {
  return db.transaction().execute(async (trx) => {
    const food = await repo.lockFood(trx, input.id);
    if (!food) throw noSuchFood(input.id);
    if ((food.archived_at !== null) !== input.archived) {
      if (input.archived) await assertNotInRecipes(trx, input.id);
      await repo.setArchived(trx, input.id, input.archived, now);
      await recordAudit(trx, actor, {
        action: input.archived ? 'food.archived' : 'food.restored',
        entity: 'food',
        entityId: input.id,
        summary: input.archived
          ? `Archived the food “${food.name}” (no longer found by search)`
          : `Restored the food “${food.name}” to search`,
      });
    }
    return getFood(trx, input.id);
  });
}

/** Replaces a food's household portions (a cooked dal's katori is not a raw rice's). */
export async function setPortions(db: Db, actor: Actor, input: z.output<typeof setPortionsInput>, now: Date): Promise<FoodDetail> {
  return db.transaction().execute(async (trx) => {
    if (!(await repo.lockFood(trx, input.id))) throw noSuchFood(input.id);
    const before = await getFood(trx, input.id);
    await repo.replacePortions(trx, input.id, input.portions, now);
    const after = await getFood(trx, input.id);
    await recordAudit(trx, actor, {
      action: 'food.portions-changed',
      entity: 'food',
      entityId: input.id,
      summary: `Changed the household portions of “${after.name}”`,
      details: changedFields({ portions: before.portions }, { portions: after.portions }),
    });
    return after;
  });
}
