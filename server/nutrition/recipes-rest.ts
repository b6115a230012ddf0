import { z } from 'zod';
import { defineRoutes, pathId, untrusted, withBody } from '../rest/route.js';
import { createRecipeInput, RECIPE_INGREDIENTS_MAX, recipeView, updateRecipeInput } from './recipes-schema.js';

/** Recipes over REST: thin adapters over the `recipes` procedures (recipes-router.ts, recipes-console.ts). */

const idParam = z.object({ id: z.string().describe('The recipe’s id (a food id)') });

const MATHS =
  'Values per 100 g of the cooked dish are the sum of the ingredients’ nutrients (raw weights) divided by the cooked weight; per serving, those of servingGrams of it. No retention factors are applied (the food tables carry none). A nutrient unknown for any ingredient is unknown for the dish';
const DIETITIANS = 'Only dietitians add or change recipes.';

export const recipeRoutes = defineRoutes([
  {
    method: 'post',
    path: '/recipes',
    summary: `Add a recipe (dietitians): name, nameHi (Devanagari), aliases, group (dishes by default), ingredients ([{ foodId, grams }], raw weights, 1–${RECIPE_INGREDIENTS_MAX} foods, each once; foods, not other recipes), cookedGrams (the dish’s weight once cooked) and servingGrams. ${MATHS}. 201 with the recipe, its per100g and perServing; it is then listed and read through /api/foods`,
    tag: 'Foods',
    auth: 'required',
    request: { body: createRecipeInput },
    response: recipeView,
    successStatus: 201,
    errors: { 403: DIETITIANS },
    handle: async ({ caller, body }) => ({ status: 201, message: 'Recipe added', data: await caller.recipes.create(untrusted(body)) }),
  },
  {
    method: 'get',
    path: '/recipes/:id',
    summary: `One recipe with its ingredients, raw and cooked weights, yield, per100g and perServing. ${MATHS}`,
    tag: 'Foods',
    auth: 'required',
    request: { params: idParam },
    response: recipeView,
    errors: { 404: 'No recipe has this id.' },
    handle: async ({ caller, params }) => ({ message: 'Recipe loaded', data: await caller.recipes.get(untrusted({ id: pathId(params) })) }),
  },
  {
    method: 'patch',
    path: '/recipes/:id',
    summary: `Change a recipe (dietitians): send only what changes; ingredients, when sent, replaces the whole list. Its values are recomputed. ${MATHS}`,
    tag: 'Foods',
    auth: 'required',
    request: { params: idParam, body: updateRecipeInput.omit({ id: true }) },
    response: recipeView,
    errors: { 403: DIETITIANS, 404: 'No recipe has this id.' },
    handle: async ({ caller, params, body }) => ({
      message: 'Recipe updated',
      data: await caller.recipes.update(untrusted(withBody(body, { id: pathId(params) }))),
    }),
  },
]);
