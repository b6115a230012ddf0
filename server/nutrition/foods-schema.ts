import { z } from 'zod';
import { idField, intField, optionalText, plainText, requiredText } from '../validation.js';
import { per100gSchema } from './nutrients.js';
import { foodGroup, foodSummary, householdMeasure } from './schema.js';

/**
 * The foods API's inputs and answers beyond the shared summary (schema.ts): search, a food with
 * its names and ingredients, and the dietitian's writes. Browser-safe: the console's forms and the
 * food picker import these, so a rule and its message are written once.
 */

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 50;
export const SEARCH_TEXT_MAX = 100;
export const BY_IDS_MAX = 200;
export const ALIASES_MAX = 30;
export const FOOD_NAME_MAX = 200;

/** From JSON or a query string (`?limit=10`). */
const limitField = z
  .preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), intField('limit', 1, SEARCH_LIMIT_MAX).optional())
  .transform((v) => v ?? SEARCH_LIMIT_DEFAULT);

/** What a person typed, as the search reads it: one form of each character (NFC), spaces collapsed. */
export function searchText(q: string): string {
  return q.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** `q` is any name or alias, in English, Devanagari or a transliteration; blank answers the person's recent foods. */
export const searchInput = z.object({
  q: z
    .string({ error: 'q must be text' })
    .max(SEARCH_TEXT_MAX, `q must be at most ${SEARCH_TEXT_MAX} characters`)
    .pipe(plainText('q'))
    .default(''),
  limit: limitField,
});
export type SearchInput = z.input<typeof searchInput>;

export const recentInput = z.object({ limit: limitField });

export const foodIdInput = z.object({ id: idField('id') });

export const byIdsInput = z.object({
  ids: z.array(idField('ids'), { error: 'ids must be a list of food ids' }).max(BY_IDS_MAX, `ids must list at most ${BY_IDS_MAX} foods`),
});

export const foodName = z.object({ name: z.string(), lang: z.enum(['en', 'hi']), isAlias: z.boolean() });

export const recipeIngredientView = z.object({
  foodId: z.number().int(),
  name: z.string(),
  nameHi: z.string().nullable(),
  grams: z.number(),
});

/** One food as its page and the console's editor read it: the summary, every name, where it came from, a recipe's ingredients. */
export const foodDetail = foodSummary.extend({
  /** Every other name it is found by (aliases, transliterations), without the English and Hindi names above. */
  aliases: z.array(z.string()),
  sourceRef: z.string().nullable(),
  archived: z.boolean(),
  /** A recipe's cooked weight in grams (null for a food). */
  cookedGrams: z.number().nullable(),
  /** A recipe's foods by raw weight (empty for a food). */
  ingredients: z.array(recipeIngredientView),
  updatedAt: z.date(),
});
export type FoodDetail = z.infer<typeof foodDetail>;

const nameText = (label: string) => requiredText(`${label} is required`, FOOD_NAME_MAX);

/** Devanagari, with the marks and joiners Hindi writing needs, plus spaces and the punctuation of a food's name. */
const DEVANAGARI = /^(?:[\u0900-\u097F\uA8E0-\uA8FF\s(),.'/-]|\u200C|\u200D)+$/u;

const hindiName = optionalText('Hindi name', FOOD_NAME_MAX).refine(
  (v) => v === null || DEVANAGARI.test(v),
  'Hindi name must be written in Devanagari (e.g. पनीर); put a transliteration such as "paneer" among the aliases',
);

const aliasList = z
  .array(nameText('Each alias'), { error: 'aliases must be a list of names' })
  .max(ALIASES_MAX, `A food can have at most ${ALIASES_MAX} aliases`)
  .default([]);

export const portionInput = z.object({
  unit: householdMeasure,
  grams: z
    .number({ error: 'Grams must be a number' })
    .positive('A portion must weigh more than 0 g')
    .max(5000, 'A portion can weigh at most 5000 g'),
});

const portionList = z
  .array(portionInput, { error: 'portions must be a list of { unit, grams }' })
  .max(20, 'A food can have at most 20 portions')
  .refine((list) => new Set(list.map((p) => p.unit)).size === list.length, 'Each unit can appear once among the portions');

/** A food a dietitian adds (POST /api/foods, the console). Values per 100 g; a nutrient left out is not known. */
export const createFoodInput = z.object({
  name: nameText('Name'),
  nameHi: hindiName,
  aliases: aliasList,
  group: foodGroup,
  per100g: per100gSchema,
  /** Grams of each household measure; left out, the group's defaults. */
  portions: portionList.optional(),
});
export type CreateFoodInput = z.input<typeof createFoodInput>;

/** A change to a food (PATCH /api/foods/{id}): only the fields sent change; `per100g` and `portions` replace the whole set. */
export const updateFoodInput = z.object({
  id: idField('id'),
  name: nameText('Name').optional(),
  nameHi: hindiName.optional(),
  aliases: aliasList.optional(),
  group: foodGroup.optional(),
  per100g: per100gSchema.optional(),
  portions: portionList.optional(),
});
export type UpdateFoodInput = z.input<typeof updateFoodInput>;

export const archiveFoodInput = z.object({ id: idField('id'), archived: z.boolean({ error: 'archived must be true or false' }) });

export const setPortionsInput = z.object({ id: idField('id'), portions: portionList });

/** What the console lists: a page of foods, newest-edited first when there is no query. */
export const consoleListInput = z.object({
  q: searchInput.shape.q,
  includeArchived: z.boolean().default(false),
  limit: limitField,
});
