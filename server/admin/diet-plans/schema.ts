import { z } from 'zod';
import {
  acknowledgeWarnings,
  composedDietPlanSchema,
  dietPlanSummary,
  pdfBase64,
  rangeError,
  rangeOk,
  uploadFields,
} from '../../diet-plan/schema.js';
import { idField, intField, pageInput, pageOf } from '../../validation.js';

/**
 * Diet plans in the console: the list, upload, compose and version inputs.
 * The plan's rules (PDF size, date range, revision) and the shapes returned
 * live in server/diet-plan/schema.ts. zod only.
 */

/** The upload form (the file is checked by content on the server). */
export const uploadForm = uploadFields.refine(rangeOk, rangeError);
export const uploadDietPlanInput = uploadFields
  .extend({ clientId: idField('clientId'), pdfBase64, acknowledgeWarnings })
  .refine(rangeOk, rangeError);

export const composeDietPlanInput = z.object({ clientId: idField('clientId'), plan: composedDietPlanSchema, acknowledgeWarnings });
/** Renders without saving (the composer's preview). */
export const previewDietPlanInput = z.object({ clientId: idField('clientId'), plan: composedDietPlanSchema });

export const listDietPlansAdminInput = pageInput.extend({ clientId: idField('clientId').optional() });
export const versionPdfInput = z.object({ id: idField('id'), version: intField('version', 1) });

export const dietPlanPage = pageOf(dietPlanSummary);

export const pdfFile = z.object({ filename: z.string(), base64: z.string() });
export const savedDietPlan = z.object({ id: z.number().int(), version: z.number().int(), message: z.string() });
