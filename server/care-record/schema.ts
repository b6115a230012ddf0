import { z } from 'zod';
import { attachmentView } from '../attachments/schema.js';
import { weightKg } from '../weight/schema.js';
import { dateField, idempotencyKey, idField, numberField, optionalText, requiredText } from '../validation.js';

/**
 * The care record (decision 117): intake questionnaire, goals, body
 * measurements, progress photos and documents. zod only: the client's forms
 * import this file, so every rule and message is written once.
 */

const clientIdField = idField('clientId').optional();
export const clientQuery = z.object({ clientId: clientIdField });

/** Calendar dates a client enters: real dates, none before this (older records are typos). */
export const EARLIEST_RECORD_DATE = '2000-01-01';
export const FUTURE_DATE_MESSAGE = 'The date cannot be in the future';
export const recordDate = (label = 'Date') =>
  dateField(`${label} is required`).refine((d) => d >= EARLIEST_RECORD_DATE, `${label} must be in the year 2000 or later`);

// ---------------------------------------------------------------- intake questionnaire

export const CONDITIONS = {
  pcos: 'PCOD / PCOS',
  thyroid: 'Thyroid',
  diabetes: 'Diabetes',
  hypertension: 'High blood pressure',
} as const;
export const DIET_PATTERNS = {
  vegetarian: 'Vegetarian',
  eggetarian: 'Eggetarian',
  'non-vegetarian': 'Non-vegetarian',
  vegan: 'Vegan',
  jain: 'Jain',
} as const;
export const ACTIVITY_LEVELS = {
  sedentary: 'Mostly sitting (desk work, little walking)',
  light: 'Light (walks, housework)',
  moderate: 'Moderate (exercise 3–4 days a week)',
  active: 'Active (exercise most days)',
  'very-active': 'Very active (physical work or daily training)',
} as const;

const keysOf = <T extends Record<string, string>>(o: T) => Object.keys(o) as [keyof T & string, ...(keyof T & string)[]];

export const SLEEP_HOURS = { min: 2, max: 16 } as const;
const SLEEP_MESSAGE = `Sleep must be between ${SLEEP_HOURS.min} and ${SLEEP_HOURS.max} hours a night`;

const choice = <T extends Record<string, string>>(options: T, label: string) =>
  z
    .enum(keysOf(options), { error: `Choose one of the ${label} listed` })
    .nullish()
    .transform((v) => v ?? null);

/**
 * The answers as they are saved while the client types: every answer may be
 * missing (a half-filled form is kept), each is checked on its own.
 */
export const intakeAnswers = z.object({
  conditions: z
    .array(z.enum(keysOf(CONDITIONS), { error: 'Choose conditions from the list (write others below)' }), {
      error: 'Conditions must be a list',
    })
    .max(Object.keys(CONDITIONS).length, 'Choose each condition once')
    .refine((list) => new Set(list).size === list.length, 'Choose each condition once')
    .nullish()
    .transform((v) => v ?? []),
  otherConditions: optionalText('Other conditions', 500, { multiline: true }),
  medicines: optionalText('Medicines and supplements', 1000, { multiline: true }),
  allergies: optionalText('Allergies and intolerances', 1000, { multiline: true }),
  dietPattern: choice(DIET_PATTERNS, 'diet patterns'),
  cuisine: optionalText('Cuisine and region', 200),
  typicalDay: optionalText('A typical day’s meals', 2000, { multiline: true }),
  activityLevel: choice(ACTIVITY_LEVELS, 'activity levels'),
  sleepHours: numberField(SLEEP_MESSAGE, 'Sleep must be a number of hours')
    .pipe(z.number().min(SLEEP_HOURS.min, SLEEP_MESSAGE).max(SLEEP_HOURS.max, SLEEP_MESSAGE))
    .transform((h) => Math.round(h * 2) / 2)
    .nullish()
    .transform((v) => v ?? null),
  goalsInWords: optionalText('Your goals', 1000, { multiline: true }),
  womensHealth: optionalText('Women’s health', 1000, { multiline: true }),
});
export type IntakeAnswers = z.infer<typeof intakeAnswers>;
export type IntakeField = keyof IntakeAnswers;

/** What "done" needs: the answers a dietitian cannot write a plan without. */
export const REQUIRED_INTAKE: Partial<Record<IntakeField, string>> = {
  dietPattern: 'Choose your diet pattern',
  typicalDay: 'Tell us about a typical day’s meals and their times',
  activityLevel: 'Choose your activity level',
  sleepHours: 'Tell us how many hours you usually sleep',
  goalsInWords: 'Tell us your goals in your own words',
};

/** The required answers still missing, with the message for each (empty when the questionnaire can be finished). */
export function missingIntakeAnswers(answers: Partial<IntakeAnswers>): Record<string, string[]> {
  const missing: Record<string, string[]> = {};
  for (const [field, message] of Object.entries(REQUIRED_INTAKE)) {
    const v = answers[field as IntakeField];
    if (v === null || v === undefined || v === '') missing[field] = [message!];
  }
  return missing;
}

export const saveIntakeInput = z.object({
  clientId: clientIdField,
  answers: intakeAnswers,
  /** True when the client presses "Finish": the required answers must all be there. Once finished it stays finished. */
  complete: z.boolean({ error: 'complete must be true or false' }).optional(),
});
export type SaveIntakeInput = z.infer<typeof saveIntakeInput>;

export const INTAKE_STATES = ['not-started', 'in-progress', 'done'] as const;
export const intake = z.object({
  clientId: z.number().int(),
  state: z.enum(INTAKE_STATES),
  answers: intakeAnswers,
  completedAt: z.date().nullable(),
  updatedAt: z.date().nullable(),
});
export type Intake = z.infer<typeof intake>;

// ---------------------------------------------------------------- goals

export const WATER_GLASSES = { min: 1, max: 30 } as const;
export const STEPS = { min: 500, max: 50_000 } as const;
export const CM = { min: 10, max: 250 } as const;
const cmMessage = (label: string) => `${label} must be between ${CM.min} and ${CM.max} cm`;

const optionalNumber = (label: string, rule: z.ZodNumber) =>
  numberField(`${label} is required`, `${label} must be a number`)
    .pipe(rule)
    .nullish()
    .transform((v) => v ?? null);
const centimetres = (label: string) =>
  optionalNumber(label, z.number().min(CM.min, cmMessage(label)).max(CM.max, cmMessage(label))).transform((v) =>
    v === null ? null : Math.round(v * 10) / 10,
  );

export const goalsForm = z.object({
  targetWeightKg: weightKg.nullish().transform((v) => v ?? null),
  targetDate: recordDate('Target date')
    .nullish()
    .transform((v) => v ?? null),
  waistCm: centimetres('Target waist'),
  waterGlasses: optionalNumber(
    'Daily water',
    z
      .number()
      .int('Daily water is a whole number of glasses')
      .min(WATER_GLASSES.min, `Daily water must be between ${WATER_GLASSES.min} and ${WATER_GLASSES.max} glasses`)
      .max(WATER_GLASSES.max, `Daily water must be between ${WATER_GLASSES.min} and ${WATER_GLASSES.max} glasses`),
  ),
  steps: optionalNumber(
    'Daily steps',
    z
      .number()
      .int('Daily steps is a whole number')
      .min(STEPS.min, `Daily steps must be between ${STEPS.min.toLocaleString('en-IN')} and ${STEPS.max.toLocaleString('en-IN')}`)
      .max(STEPS.max, `Daily steps must be between ${STEPS.min.toLocaleString('en-IN')} and ${STEPS.max.toLocaleString('en-IN')}`),
  ),
  habit: optionalText('The habit', 300),
});
export const createGoalsInput = goalsForm.extend({ clientId: clientIdField, clientRequestId: idempotencyKey('clientRequestId') });
export type CreateGoalsInput = z.infer<typeof createGoalsInput>;

export const goals = z.object({
  id: z.number().int(),
  clientId: z.number().int(),
  targetWeightKg: z.number().nullable(),
  targetDate: z.string().nullable(),
  waistCm: z.number().nullable(),
  waterGlasses: z.number().int().nullable(),
  steps: z.number().int().nullable(),
  habit: z.string().nullable(),
  setBy: z.string().nullable().describe('Who set these goals (the client or a dietitian), by name'),
  createdAt: z.date(),
});
export const goalsProgress = z.object({
  startWeightKg: z.number().nullable().describe('The weight when the goals were set (the nearest weigh-in)'),
  latestWeightKg: z.number().nullable(),
  latestWeightDate: z.string().nullable(),
  /** Share of the way from the start weight to the target, 0–100 (null without a target or weights). */
  weightPercent: z.number().nullable(),
  latestWaistCm: z.number().nullable(),
  daysLeft: z.number().int().nullable().describe('Days until the target date (India time), negative once past'),
});
export const goalsOverview = z.object({
  current: goals.nullable(),
  progress: goalsProgress,
  history: z.array(goals),
});
export const savedGoals = goals.extend({ repeated: z.boolean() });
export type Goals = z.infer<typeof goals>;
export type GoalsOverview = z.infer<typeof goalsOverview>;

// ---------------------------------------------------------------- body measurements

export const MEASUREMENT_PARTS = {
  waistCm: 'Waist',
  hipCm: 'Hip',
  chestCm: 'Chest',
  armCm: 'Arm',
  thighCm: 'Thigh',
} as const;
export type MeasurementPart = keyof typeof MEASUREMENT_PARTS;

export const measurementForm = z.object({
  date: recordDate(),
  waistCm: centimetres('Waist'),
  hipCm: centimetres('Hip'),
  chestCm: centimetres('Chest'),
  armCm: centimetres('Arm'),
  thighCm: centimetres('Thigh'),
});
export const createMeasurementInput = measurementForm.extend({
  clientId: clientIdField,
  clientRequestId: idempotencyKey('clientRequestId'),
});
export type CreateMeasurementInput = z.infer<typeof createMeasurementInput>;

export const measurement = z.object({
  id: z.number().int(),
  clientId: z.number().int(),
  date: z.string(),
  waistCm: z.number().nullable(),
  hipCm: z.number().nullable(),
  chestCm: z.number().nullable(),
  armCm: z.number().nullable(),
  thighCm: z.number().nullable(),
  createdAt: z.date(),
});
export const savedMeasurement = measurement.extend({ repeated: z.boolean() });
export type Measurement = z.infer<typeof measurement>;
/** A client's measurements are capped per read: decades of monthly entries fit. */
export const MEASUREMENTS_LIMIT = 500;

// ---------------------------------------------------------------- progress photos

export const POSES = { front: 'Front', side: 'Side' } as const;
export const createProgressPhotoInput = z.object({
  clientId: clientIdField,
  clientRequestId: idempotencyKey('clientRequestId'),
  date: recordDate(),
  pose: z.enum(keysOf(POSES), { error: 'The pose must be front or side' }),
  attachmentId: z.uuid('attachmentId must be the id of an uploaded photo (POST /api/attachments)'),
});
export type CreateProgressPhotoInput = z.infer<typeof createProgressPhotoInput>;
export const progressPhoto = z.object({
  id: z.number().int(),
  clientId: z.number().int(),
  date: z.string(),
  pose: z.enum(keysOf(POSES)),
  photo: attachmentView,
  createdAt: z.date(),
});
export const savedProgressPhoto = progressPhoto.extend({ repeated: z.boolean() });
export type ProgressPhoto = z.infer<typeof progressPhoto>;
export const PROGRESS_PHOTOS_LIMIT = 200;

// ---------------------------------------------------------------- documents

export const DOCUMENT_KINDS = { 'lab-report': 'Lab report', prescription: 'Prescription', other: 'Other' } as const;
/** What the documents list shows for a file sent in a conversation. */
export const CONVERSATION_KIND = 'conversation' as const;
export const DOCUMENT_LIST_KINDS = { ...DOCUMENT_KINDS, [CONVERSATION_KIND]: 'Sent in messages' } as const;

export const documentForm = z.object({
  kind: z.enum(keysOf(DOCUMENT_KINDS), { error: 'Choose lab report, prescription or other' }),
  title: requiredText('The title is required', 120),
  date: recordDate('The document’s date'),
});
export const createDocumentInput = documentForm.extend({
  clientId: clientIdField,
  clientRequestId: idempotencyKey('clientRequestId'),
  attachmentId: z.uuid('attachmentId must be the id of an uploaded file (POST /api/attachments)'),
});
export type CreateDocumentInput = z.infer<typeof createDocumentInput>;
export const documentItem = z.object({
  id: z.string().describe('“document-<n>” for an uploaded document, “message-<attachment id>” for a file sent in a conversation'),
  clientId: z.number().int(),
  kind: z.enum(keysOf(DOCUMENT_LIST_KINDS)),
  title: z.string(),
  date: z.string().describe('The document’s own date, or the day a conversation file was sent (India time)'),
  addedBy: z.enum(['client', 'dietitian']),
  addedByName: z.string().nullable(),
  file: attachmentView,
  createdAt: z.date(),
});
export const savedDocument = documentItem.extend({ repeated: z.boolean() });
export type DocumentItem = z.infer<typeof documentItem>;
export const DOCUMENTS_LIMIT = 300;

/** What careRecord.events sends: reload the named part of the record. */
export type CareRecordEvent = { kind: 'ready' } | { kind: 'changed'; part: 'goals' | 'documents' | 'intake' | 'measurements' | 'photos' };
