import { z } from 'zod';
import { weightKilograms } from '../measurements/schema.js';
import { dateField, idField, latestTodayAnywhere, numberField } from '../validation.js';

/** Weight history is capped: ten years of weekly entries fit with room to spare. */
export const WEIGHT_HISTORY_LIMIT = 1000;

export const weightKg = numberField('Weight is required', 'Weight must be a number')
  .pipe(weightKilograms)
  .transform((kg) => Math.round(kg * 100) / 100);

export const weightDate = dateField('Date is required').refine((d) => d <= latestTodayAnywhere(), 'The date cannot be in the future');

/** The Update Weight form (the client fills cId from the signed-in user). */
export const addWeightForm = z.object({ weight: weightKg, date: weightDate });

export const addWeightInput = addWeightForm.extend({ cId: idField('cId').optional() });
export const listWeightsInput = z.object({ id: idField('id').optional() });
export const deleteWeightInput = z.object({ id: idField('id') });

export const weightEntry = z.object({
  id: z.number().int(),
  weight: z.number(),
  date: z.string(),
});
export const createdWeightEntry = weightEntry.extend({ cId: z.number().int() });

export type AddWeightInput = z.infer<typeof addWeightInput>;
export type WeightEntry = z.infer<typeof weightEntry>;
