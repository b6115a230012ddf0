import { z } from 'zod';
import { composedDietPlanSchema, DIET_PLAN_PDF_MAX_BYTES } from '../../diet-plan/schema.js';
import { dateField, idField, intField, requiredText } from '../../validation.js';
import { pageInput, pageOf } from '../common.js';

/**
 * Diet plans in the console: an uploaded PDF or a composed plan (days ×
 * meals, the diet-plan domain's schema), versioned. zod only.
 */

export const DIET_PLAN_SOURCES = ['upload', 'composed'] as const;
export type DietPlanSource = (typeof DIET_PLAN_SOURCES)[number];

/** Base64 of at most 10 MB (4 characters per 3 bytes). */
export const PDF_BASE64_MAX = Math.ceil(DIET_PLAN_PDF_MAX_BYTES / 3) * 4;
const TOO_BIG = `The PDF must be at most ${DIET_PLAN_PDF_MAX_BYTES / (1024 * 1024)} MB`;
export const pdfBase64 = z
  .string({ error: 'Choose a PDF file to upload' })
  .min(1, 'Choose a PDF file to upload')
  .max(PDF_BASE64_MAX, TOO_BIG)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'The file did not arrive intact. Choose it again.');

const uploadFields = z.object({
  title: requiredText('Title is required', 120),
  from: dateField('From date is required'),
  to: dateField('To date is required'),
});
const rangeOk = (p: { from: string; to: string }) => p.from <= p.to;
const rangeError = { message: 'The end date cannot be before the start date', path: ['to'] };

/** The upload form (the file is checked by content on the server). */
export const uploadForm = uploadFields.refine(rangeOk, rangeError);
export const uploadDietPlanInput = uploadFields.extend({ clientId: idField('clientId'), pdfBase64 }).refine(rangeOk, rangeError);

export const composeDietPlanInput = z.object({ clientId: idField('clientId'), plan: composedDietPlanSchema });
/** Renders without saving (the composer's preview). */
export const previewDietPlanInput = composeDietPlanInput;

/**
 * Editing makes a new version. `expectedVersion` is the version the editor
 * started from: if someone saved in between, the edit is refused instead of
 * silently overwriting their work.
 */
export const reviseDietPlanInput = z.discriminatedUnion('source', [
  uploadFields
    .extend({
      source: z.literal('upload'),
      id: idField('id'),
      expectedVersion: intField('expectedVersion', 1),
      /** Leave out to keep the current PDF (e.g. only the dates change). */
      pdfBase64: pdfBase64.optional(),
    })
    .refine(rangeOk, rangeError),
  z.object({
    source: z.literal('composed'),
    id: idField('id'),
    expectedVersion: intField('expectedVersion', 1),
    plan: composedDietPlanSchema,
  }),
]);
export type ReviseDietPlanInput = z.infer<typeof reviseDietPlanInput>;

export const listDietPlansAdminInput = pageInput.extend({ clientId: idField('clientId').optional() });
export const versionPdfInput = z.object({ id: idField('id'), version: intField('version', 1) });

export const dietPlanSummary = z.object({
  id: z.number().int(),
  client: z.object({ id: z.number().int(), fullName: z.string() }),
  title: z.string(),
  from: z.string(),
  to: z.string(),
  version: z.number().int(),
  source: z.enum(DIET_PLAN_SOURCES),
  bytes: z.number().int(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export const dietPlanPage = pageOf(dietPlanSummary);

export const dietPlanVersion = z.object({
  version: z.number().int(),
  title: z.string(),
  from: z.string(),
  to: z.string(),
  source: z.enum(DIET_PLAN_SOURCES),
  bytes: z.number().int(),
  createdAt: z.date(),
  createdBy: z.string().nullable(),
  current: z.boolean(),
});

export const dietPlanDetail = dietPlanSummary.extend({
  /** The composed plan of the current version (null for an uploaded PDF). */
  content: composedDietPlanSchema.nullable(),
  /** Every version, newest first (the first is the one the client sees). */
  versions: z.array(dietPlanVersion),
  /** A short-lived link that opens the current PDF. */
  pdfURL: z.string(),
});
export type DietPlanDetail = z.infer<typeof dietPlanDetail>;

export const pdfFile = z.object({ filename: z.string(), base64: z.string() });
export const savedDietPlan = z.object({ id: z.number().int(), version: z.number().int(), message: z.string() });
