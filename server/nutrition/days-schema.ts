import { z } from 'zod';
import { dateField, idField } from '../validation.js';
import { nutrientAmounts } from './schema.js';

/**
 * What a day of eating adds up to, as the journal, the console's week chart and
 * `GET /api/nutrition/days` share it. Browser-safe.
 */

/** The longest range one answer covers (a quarter's chart; each day is a few numbers). */
export const NUTRITION_DAYS_MAX = 92;

/**
 * A sum of foods (compute.ts's Total): `values` per nutrient over the items that know it,
 * `missing` the count of items that did not (so a day's iron is never quietly understated).
 */
export const nutrientTotal = z.object({
  values: nutrientAmounts,
  missing: nutrientAmounts,
  items: z.number().int(),
});
export type NutrientTotal = z.infer<typeof nutrientTotal>;

/** A client and a range of days ('YYYY-MM-DD', India time), as the journal's list and the days' totals take them. */
export const clientDaysInput = z
  .object({
    /** The client (a dietitian names one; a client may leave it out or name itself). */
    clientId: idField('clientId').optional(),
    /** First day; six days before `to` when left out. */
    from: dateField('from is required').optional(),
    /** Last day; today when left out. */
    to: dateField('to is required').optional(),
  })
  .refine((v) => v.from === undefined || v.to === undefined || v.from <= v.to, {
    message: 'from must not be after to',
    path: ['from'],
  });
export const nutritionDaysInput = clientDaysInput;
export type NutritionDaysInput = z.infer<typeof nutritionDaysInput>;

export const nutritionDay = z.object({
  date: z.string(),
  /** Meals logged that day (with foods or not). */
  meals: z.number().int(),
  /** Meals of the day that list foods (the others, photo or text only, add nothing). */
  mealsWithFoods: z.number().int(),
  totals: nutrientTotal,
  /** Each nutrient's share of its target (0.8 = 80 %), for the nutrients with a target. */
  shares: nutrientAmounts,
});
export type NutritionDay = z.infer<typeof nutritionDay>;

export const nutritionDays = z.object({
  clientId: z.number().int(),
  from: z.string(),
  to: z.string(),
  /** The client's daily targets (empty when none is set). */
  targets: nutrientAmounts,
  /**
   * false: the client's dietitian keeps the numbers from the client (eating-disorder care); the
   * client's own answer then carries no days.
   */
  showNumbers: z.boolean(),
  /** Every day of the range, oldest first (a day with nothing logged has zero meals and empty totals). */
  days: z.array(nutritionDay),
});
export type NutritionDays = z.infer<typeof nutritionDays>;
