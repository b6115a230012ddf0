import type { Db } from '../db/index.js';
import { notFound } from '../errors.js';
import * as repo from './foods-repo.js';
import type { FoodDetail } from './foods-schema.js';
import { storedNutrients, toSummary } from './search.js';

/** One food with every name it is found by and, for a recipe, its ingredients (archived foods too: plans keep them). */
export async function getFood(db: Db, id: number): Promise<FoodDetail> {
  const food = await repo.findFood(db, id);
  if (!food) throw notFound(`There is no food with id ${id}.`);
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
