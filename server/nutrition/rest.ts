import { z } from 'zod';
import { defineRoutes, pathId, untrusted, withBody } from '../rest/route.js';
import { createFoodInput, foodDetail, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, updateFoodInput } from './foods-schema.js';
import { NUTRIENT_KEYS } from './nutrients.js';
import { foodSummary } from './schema.js';

/** The food library over REST: thin adapters over the `foods` procedures (router.ts, console.ts). */

const idParam = z.object({ id: z.string().describe('The food’s id') });

const VALUES = `per100g holds values per 100 g of edible portion, keyed ${NUTRIENT_KEYS.join(', ')} (kcal, kJ, g, mg or µg as the name says); a nutrient left out is not known. The values must add up: saturated fat at most fat, sugars at most carbohydrate, protein + carbohydrate + fat + fibre at most 100 g, energy near 4/4/9/2 kcal per g of protein, carbohydrate, fat and fibre`;
const DIETITIANS = 'Only dietitians change the food library.';

export const foodRoutes = defineRoutes([
  {
    method: 'get',
    path: '/foods',
    summary: `Search the food library and recipes by any name or alias, in English, Hindi (Devanagari) or a transliteration (“toor”, “अरहर”), typos forgiven (“panner” finds paneer): names equal to q first, then names starting with it, then the caller’s own recent and frequent foods, then the most similar. Without q, the caller’s recent foods. limit 1–${SEARCH_LIMIT_MAX} (default ${SEARCH_LIMIT_DEFAULT}). Archived foods are left out`,
    tag: 'Foods',
    auth: 'required',
    request: {
      query: z.object({
        q: z.string().optional().describe('Any name or alias, or part of one (at most 100 characters)'),
        limit: z.string().optional().describe(`How many foods, 1–${SEARCH_LIMIT_MAX}`),
      }),
    },
    response: z.array(foodSummary),
    handle: async ({ caller, query }) => {
      const foods = await caller.foods.search(untrusted(query));
      return { message: foods.length > 0 ? 'Foods found' : 'No food matches', data: foods };
    },
  },
  {
    method: 'get',
    path: '/foods/:id',
    summary:
      'One food or recipe: values per 100 g, household portions in grams, its Hindi name and aliases, where it came from; a recipe with its ingredients (raw grams), cooked weight and serving. Archived foods too (plans and meals keep them)',
    tag: 'Foods',
    auth: 'required',
    request: { params: idParam },
    response: foodDetail,
    errors: { 404: 'No food has this id.' },
    handle: async ({ caller, params }) => ({ message: 'Food loaded', data: await caller.foods.get(untrusted({ id: pathId(params) })) }),
  },
  {
    method: 'post',
    path: '/foods',
    summary: `Add a food to the library (dietitians): name, nameHi (Devanagari), aliases (other names it is searched by), group, per100g and portions ([{ unit, grams }]; left out, the group’s usual portions). ${VALUES}. 201 with the food`,
    tag: 'Foods',
    auth: 'required',
    request: { body: createFoodInput },
    response: foodDetail,
    successStatus: 201,
    errors: { 400: 'A field is missing or wrong, or the values do not add up (each problem named in fieldErrors).', 403: DIETITIANS },
    handle: async ({ caller, body }) => ({ status: 201, message: 'Food added', data: await caller.foods.create(untrusted(body)) }),
  },
  {
    method: 'patch',
    path: '/foods/:id',
    summary: `Change a food (dietitians): send only what changes; aliases, per100g and portions each replace the whole set. ${VALUES}. A recipe’s values follow from its ingredients and cannot be set here`,
    tag: 'Foods',
    auth: 'required',
    request: { params: idParam, body: updateFoodInput.omit({ id: true }) },
    response: foodDetail,
    errors: { 400: 'A field is wrong, or the values do not add up (each problem named).', 403: DIETITIANS, 404: 'No food has this id.' },
    handle: async ({ caller, params, body }) => ({
      message: 'Food updated',
      data: await caller.foods.update(untrusted(withBody(body, { id: pathId(params) }))),
    }),
  },
]);
