import { z } from 'zod';
import { foodQuantity, measure } from '../nutrition/schema.js';
import { dateField, idField, intField, isCalendarDate, pageInput, pageOf, plainText, requiredText } from '../validation.js';

/** Page sizes of the My Diet Plans table (10, 25, 50 or 100 rows; 10 by default). */
export const DIET_PLAN_PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_DIET_PLAN_PAGE_SIZE = 10;
/** Far beyond any real history; keeps OFFSET arithmetic sane for absurd input. */
const MAX_PAGE = 100_000;

/** The largest PDF a plan may carry (the database checks it too). */
export const DIET_PLAN_PDF_MAX_BYTES = 10 * 1024 * 1024;

/** Query strings send text: '' and missing mean "use the default". */
const fromQuery = (v: unknown) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.trim())) : v);

const pageField = z.preprocess(
  fromQuery,
  z
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(0, 'page must be 0 or more (pages start at 0)')
    .max(MAX_PAGE, `page must be at most ${MAX_PAGE}`)
    .default(0),
);

const pageSizeMessage = `count must be one of ${DIET_PLAN_PAGE_SIZES.join(', ')}`;
const countField = z.preprocess(
  fromQuery,
  z.literal(DIET_PLAN_PAGE_SIZES, { error: pageSizeMessage }).default(DEFAULT_DIET_PLAN_PAGE_SIZE),
);

/** dietPlan.list and GET /api/diet-plan/get-diet-plan: `user` is the client (admins must name one). */
export const listDietPlansInput = z.object({
  user: idField('user').optional(),
  page: pageField,
  count: countField,
});
export type ListDietPlansInput = z.infer<typeof listDietPlansInput>;

export const dietPlanRow = z.object({
  id: z.number().int(),
  /** What the plan is ('Weight loss, phase 2'), as the dietitian named it. */
  title: z.string(),
  from: z.string(),
  to: z.string(),
  /** A short-lived signed link that opens the PDF without a bearer header. */
  pdfURL: z.string(),
});
export type DietPlanRow = z.infer<typeof dietPlanRow>;

export const dietPlanList = z.object({
  data: z.array(dietPlanRow),
  /** Total number of the client's plans (for the pager), not the page length. */
  count: z.number().int(),
});
export type DietPlanList = z.infer<typeof dietPlanList>;

export const pdfLinkParams = z.object({ id: idField('id') });

/* ------------------------------------------------------------------------ */
/* A composed plan: days × meals, rendered server-side into a branded PDF.   */
/* The dietitian console builds its form from these schemas.       */
/* ------------------------------------------------------------------------ */

/**
 * The measures a plan portion is given in: the household ones an Indian kitchen uses (katori, roti,
 * glass…) and grams or millilitres, one list for plans, meals and foods (server/nutrition/measures.ts).
 */
export { MEASURES, type Measure } from '../nutrition/measures.js';

/** Household measures are served in quarters (1½ katori); grams and millilitres are whole numbers. */
const MAX_SERVINGS = 50;
const MAX_METRIC = 5000;

/**
 * The household measure is the portion (1 katori, 2 rotis): that is how the client serves it. Grams
 * and millilitres are optional precision on top, for when the dietitian has weighed it; a portion may
 * also be given in grams alone (150 g).
 */
export const portionSchema = z
  .object({
    quantity: z
      .number({ error: 'Quantity is required' })
      .positive('Quantity must be more than 0')
      .max(MAX_METRIC, `Quantity must be at most ${MAX_METRIC}`),
    unit: measure,
    /** Weight of the portion in grams (cooked weight for cooked food). */
    grams: z
      .number()
      .int('Grams must be a whole number')
      .min(1, 'Grams must be between 1 and 5000')
      .max(5000, 'Grams must be between 1 and 5000')
      .optional(),
    /** Volume for drinks, in millilitres. */
    ml: z
      .number()
      .int('Millilitres must be a whole number')
      .min(1, 'Millilitres must be between 1 and 5000')
      .max(5000, 'Millilitres must be between 1 and 5000')
      .optional(),
  })
  .superRefine((p, ctx) => {
    const metric = p.unit === 'g' || p.unit === 'ml';
    if (metric && !Number.isInteger(p.quantity)) {
      ctx.addIssue({ code: 'custom', path: ['quantity'], message: `Give ${p.unit === 'g' ? 'grams' : 'millilitres'} as a whole number` });
    } else if (!metric && (p.quantity < 0.25 || p.quantity > MAX_SERVINGS)) {
      ctx.addIssue({ code: 'custom', path: ['quantity'], message: `Quantity must be between ¼ and ${MAX_SERVINGS}` });
    } else if (!metric && !Number.isInteger(p.quantity * 4)) {
      ctx.addIssue({
        code: 'custom',
        path: ['quantity'],
        message: 'Quantity must be a whole number, or a quarter, half or three quarters',
      });
    }
  });
export type Portion = z.infer<typeof portionSchema>;

/**
 * One food of a meal: its name as printed and, once the dietitian links it to the food library, the
 * food or recipe it is (then it adds up). Items of older plans are free text and stay so until linked.
 */
export const mealItemSchema = z.object({
  food: requiredText('Food is required', 200),
  foodId: foodQuantity.shape.foodId.optional(),
  portion: portionSchema,
});
export type MealItem = z.infer<typeof mealItemSchema>;

export const mealSchema = z.object({
  /** 24-hour 'HH:MM'. */
  time: z
    .string({ error: 'Time is required' })
    .max(5, 'Time must be HH:MM, e.g. 08:30')
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Time must be HH:MM, e.g. 08:30'),
  /** The meal's name, e.g. 'Breakfast'. */
  name: requiredText('Meal name is required', 60),
  items: z.array(mealItemSchema).min(1, 'Add at least one food to each meal').max(12, 'A meal can list at most 12 foods'),
  notes: z
    .string({ error: 'Notes must be text' })
    .trim()
    .max(500, 'Notes must be at most 500 characters')
    .pipe(plainText('Notes', { multiline: true }))
    .optional(),
});
export type Meal = z.infer<typeof mealSchema>;

export const planDaySchema = z.object({
  /** e.g. 'Monday', 'Day 1' or 'Mon, Wed, Fri'. */
  label: requiredText('Day label is required', 60),
  meals: z.array(mealSchema).min(1, 'Add at least one meal to each day').max(12, 'A day can have at most 12 meals'),
});
export type PlanDay = z.infer<typeof planDaySchema>;

/** A plan's dates: the end may not come before the start (one rule for every plan form). */
export const rangeOk = (p: { from: string; to: string }) => p.from <= p.to;
export const rangeError = {
  message: 'The end date cannot be before the start date',
  path: ['to'],
  // Checked whenever both dates are real dates, even while other fields are wrong: otherwise the
  // form shows this only on a second submit, after everything else was fixed.
  when: ({ value }: { value: unknown }) => {
    const v = value as { from?: unknown; to?: unknown } | null;
    return typeof v?.from === 'string' && typeof v.to === 'string' && isCalendarDate(v.from.trim()) && isCalendarDate(v.to.trim());
  },
};

/**
 * A plan that looks like a mistake (fewer days than its dates need, or dates over another plan of
 * the client's) is saved only once the dietitian has seen why and confirmed: until then the save
 * answers 409 with each reason in fieldErrors.acknowledgeWarnings.
 */
export const acknowledgeWarnings = z
  .boolean({ error: 'acknowledgeWarnings must be true or false' })
  .optional()
  .describe('Save even though the plan has warnings (a 409 listed them in fieldErrors.acknowledgeWarnings)');

export const composedDietPlanSchema = z
  .object({
    title: requiredText('Title is required', 120),
    from: dateField('From date is required'),
    to: dateField('To date is required'),
    days: z.array(planDaySchema).min(1, 'Add at least one day').max(31, 'A plan can have at most 31 days'),
    /** General guidance printed after the table (water, activity, swaps, budget...). */
    guidelines: z.array(requiredText('Guideline is required', 300)).max(20).default([]),
    /** Print each day's nutrient totals (of its linked foods) under the day in the PDF. */
    showTotals: z.boolean({ error: 'showTotals must be true or false' }).default(false),
  })
  .refine(rangeOk, rangeError);
export type ComposedDietPlan = z.infer<typeof composedDietPlanSchema>;
export type ComposedDietPlanInput = z.input<typeof composedDietPlanSchema>;

/** What createDietPlan checks besides the PDF bytes (the console's upload form shares it). */
export const newDietPlanFields = z
  .object({
    clientId: idField('clientId'),
    title: requiredText('Title is required', 120),
    from: dateField('From date is required'),
    to: dateField('To date is required'),
  })
  .refine(rangeOk, rangeError);

/* Plans as the console manages them: uploaded or composed, versioned. */

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

export const uploadFields = z.object({
  title: requiredText('Title is required', 120),
  from: dateField('From date is required'),
  to: dateField('To date is required'),
});

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
      acknowledgeWarnings,
    })
    .refine(rangeOk, rangeError),
  z.object({
    source: z.literal('composed'),
    id: idField('id'),
    expectedVersion: intField('expectedVersion', 1),
    plan: composedDietPlanSchema,
    acknowledgeWarnings,
  }),
]);
export type ReviseDietPlanInput = z.infer<typeof reviseDietPlanInput>;

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

/* The console's inputs and answers (admin.dietPlans.*, server/diet-plan/console.ts). */

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

/* How a plan prints its portions and adds up: browser-safe code the screens share with the server. */
export * from './portion.js';
export * from './nutrition.js';
