import { z } from 'zod';
import { INT32_MAX } from '../validation.js';
import { FOOD_GROUP_KEYS } from './groups.js';
import { MEASURE_KEYS, type HouseholdMeasure } from './measures.js';
import { NUTRIENT_KEYS, per100gSchema } from './nutrients.js';

/**
 * The food library's shapes as the API, the console and the client screens share them
 * (REST `/api/foods`, tRPC `foods.*`). Browser-safe.
 */

export const foodKind = z.enum(['food', 'recipe']);
export const foodSource = z.enum(['ifct2017', 'csv', 'clinic']);
export const foodGroup = z.enum(FOOD_GROUP_KEYS, { error: `Group must be one of ${FOOD_GROUP_KEYS.join(', ')}` });
export const measure = z.enum(MEASURE_KEYS, { error: `Unit must be one of ${MEASURE_KEYS.join(', ')}` });
const householdKeys = MEASURE_KEYS.filter((k): k is HouseholdMeasure => k !== 'g' && k !== 'ml') as [
  HouseholdMeasure,
  ...HouseholdMeasure[],
];
export const householdMeasure = z.enum(householdKeys, { error: `Unit must be one of ${householdKeys.join(', ')}` });

export const portionView = z.object({ unit: householdMeasure, grams: z.number() });

/** One food or recipe as lists and search answer it: enough to add it to a plan or a meal and add it up. */
export const foodSummary = z.object({
  id: z.number().int(),
  kind: foodKind,
  name: z.string(),
  /** The Hindi name in Devanagari, when known. */
  nameHi: z.string().nullable(),
  group: foodGroup,
  source: foodSource,
  /** Values per 100 g of edible portion; a missing nutrient is not known for this food. */
  per100g: per100gSchema,
  /** Grams of one of each household measure of this food. */
  portions: z.array(portionView),
  /** A recipe's serving in grams (null for a food). */
  servingGrams: z.number().nullable(),
});
export type FoodSummary = z.infer<typeof foodSummary>;

/** A quantity of a food as plans and meals hold it: 1½ katori, 2 roti, 150 g. */
export const foodQuantity = z.object({
  // A number, not idField's text-reading form: plans and meals send JSON, and the builder's types stay numbers.
  foodId: z
    .number({ error: 'foodId must be a food id' })
    .int('foodId must be a food id')
    .positive('foodId must be a food id')
    .max(INT32_MAX, 'foodId is not a known food (too large)'),
  quantity: z
    .number({ error: 'Quantity must be a number' })
    .positive('Quantity must be more than 0')
    .max(5000, 'Quantity must be at most 5000'),
  unit: measure,
});
export type FoodQuantity = z.infer<typeof foodQuantity>;

/** Nutrient amounts keyed as in nutrients.ts (targets, totals). */
export const nutrientAmounts = z.partialRecord(z.enum(NUTRIENT_KEYS), z.number());
