import { z } from 'zod';
import { idField } from '../validation.js';
import { createFoodInput, foodDetail, portionInput } from './foods-schema.js';
import { foodGroup, nutrientAmounts } from './schema.js';

/**
 * A clinic's recipes: a dish made of foods by raw weight, with its cooked weight and a serving.
 * Its values per 100 g are the sum of its ingredients over the cooked weight (compute.ts's
 * recipePer100g), stored on its row in `foods` (kind 'recipe'), so search, plans and meals use it
 * as any food. Browser-safe: the console's recipe editor imports these rules and messages.
 */

export const RECIPE_INGREDIENTS_MAX = 40;
export const RECIPE_COOKED_MAX_G = 50_000;
export const RECIPE_SERVING_MAX_G = 5000;
export const INGREDIENT_MAX_G = 50_000;

export const recipeIngredientInput = z.object({
  foodId: idField('foodId'),
  grams: z
    .number({ error: 'Each ingredient’s grams must be a number (raw weight)' })
    .positive('Each ingredient must weigh more than 0 g')
    .max(INGREDIENT_MAX_G, `An ingredient can weigh at most ${INGREDIENT_MAX_G} g`),
});

const ingredientList = z
  .array(recipeIngredientInput, { error: 'ingredients must be a list of { foodId, grams }' })
  .min(1, 'A recipe needs at least one ingredient')
  .max(RECIPE_INGREDIENTS_MAX, `A recipe can have at most ${RECIPE_INGREDIENTS_MAX} ingredients`)
  .refine(
    (list) => new Set(list.map((i) => i.foodId)).size === list.length,
    'Each food can appear once among the ingredients: add its grams together',
  );

const cookedGrams = z
  .number({ error: 'The cooked weight must be a number of grams' })
  .positive('The cooked weight must be more than 0 g')
  .max(RECIPE_COOKED_MAX_G, `The cooked weight can be at most ${RECIPE_COOKED_MAX_G} g`);

const servingGrams = z
  .number({ error: 'The serving must be a number of grams' })
  .positive('The serving must weigh more than 0 g')
  .max(RECIPE_SERVING_MAX_G, `A serving can weigh at most ${RECIPE_SERVING_MAX_G} g`);

const SERVING_OVER_DISH = 'A serving cannot weigh more than the whole cooked dish';

/** A new recipe (POST /api/recipes, the console's editor). */
export const createRecipeInput = z
  .object({
    name: createFoodInput.shape.name,
    nameHi: createFoodInput.shape.nameHi,
    aliases: createFoodInput.shape.aliases,
    group: foodGroup.default('dishes'),
    ingredients: ingredientList,
    cookedGrams,
    servingGrams,
    /** Grams of each household measure of the cooked dish; left out, the group's defaults. */
    portions: z.array(portionInput).max(20, 'A recipe can have at most 20 portions').optional(),
  })
  .refine((r) => r.servingGrams <= r.cookedGrams, { message: SERVING_OVER_DISH, path: ['servingGrams'] });
export type CreateRecipeInput = z.input<typeof createRecipeInput>;

/** A change to a recipe (PATCH /api/recipes/{id}): only what is sent changes; `ingredients` replaces the whole list. Its values are recomputed. */
export const updateRecipeInput = z.object({
  id: idField('id'),
  name: createFoodInput.shape.name.optional(),
  nameHi: createFoodInput.shape.nameHi.optional(),
  aliases: createFoodInput.shape.aliases.unwrap().optional(),
  group: foodGroup.optional(),
  ingredients: ingredientList.optional(),
  cookedGrams: cookedGrams.optional(),
  servingGrams: servingGrams.optional(),
});
export type UpdateRecipeInput = z.input<typeof updateRecipeInput>;

export const recipeIdInput = z.object({ id: idField('id') });

/** A recipe as the API answers it: the food's detail plus what its weights give. */
export const recipeView = foodDetail.extend({
  /** The ingredients' raw weight together, g. */
  rawGrams: z.number(),
  /** Cooked weight ÷ raw weight (2.5 for a dal that takes up water, under 1 for a dish that dries). */
  yieldFactor: z.number(),
  /** The nutrients in one serving (servingGrams of the cooked dish). */
  perServing: nutrientAmounts,
});
export type RecipeView = z.infer<typeof recipeView>;

/** The recipes a food is an ingredient of (a food used in recipes is not archived without saying so). */
export const recipeUse = z.object({ id: z.number().int(), name: z.string(), archived: z.boolean() });
