import { z } from 'zod';
import { attachmentView } from '../attachments/schema.js';
import { clientDaysInput, nutrientTotal } from '../nutrition/days-schema.js';
import { foodKind, foodQuantity, measure, nutrientAmounts } from '../nutrition/schema.js';
import { dateField, idempotencyKey, idField, optionalText, requiredText } from '../validation.js';

/** The meal journal and water (decision 118). zod and pure helpers: the client's screens import this file. */

/**
 * Calendar days of the journal. A meal counts for the day it was eaten on in
 * the client's time zone; Poshan does not know a client's own zone yet, so
 * that is India time (decision 118): server/time.ts holds the day arithmetic,
 * re-exported here for the journal's screens.
 */
export { dayIn, mondayOf, addDays as shiftDay } from '../time.js';

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export const weekdayOf = (day: string) => WEEKDAY_NAMES[new Date(`${day}T00:00:00Z`).getUTCDay()]!;

/** The meals of an Indian day, in the order they are eaten, with the words the screens show. */
export const MEAL_KINDS = {
  'early-morning': 'Early morning',
  breakfast: 'Breakfast',
  'mid-morning': 'Mid-morning',
  lunch: 'Lunch',
  'evening-snack': 'Evening snack',
  dinner: 'Dinner',
  other: 'Other',
} as const;
export type MealKind = keyof typeof MEAL_KINDS;
export const MEAL_KIND_KEYS = Object.keys(MEAL_KINDS) as [MealKind, ...MealKind[]];

export const MEAL_MARKS = { 'looks-good': 'Looks good', 'lets-talk': 'Let’s talk' } as const;
export type MealMark = keyof typeof MEAL_MARKS;
export const MEAL_MARK_KEYS = Object.keys(MEAL_MARKS) as [MealMark, ...MealMark[]];

export const MEAL_DESCRIPTION_MAX = 1000;
export const MEAL_NOTE_MAX = 1000;
export const MEAL_COMMENT_MAX = 2000;
/** Photos per meal entry (each file is checked by the attachments side). */
export const MEAL_PHOTOS_MAX = 4;
/** A client may edit or delete the entries of this many days, today included. */
export const EDITABLE_DAYS = 7;
/** A meal may be logged at most this far ahead (a phone whose clock or zone is off), never more. */
export const FUTURE_SLACK_MS = 24 * 60 * 60_000;
/** The longest range one list answers. */
export const LIST_RANGE_MAX_DAYS = 62;
export const WATER_GLASSES_MAX = 30;
/** Foods one meal lists (a thali is rarely more than a dozen). */
export const MEAL_ITEMS_MAX = 20;
export const JOURNAL_ENTRY_MISSING = 'That meal entry does not exist.';

/** 'Early morning', 'early_morning', 'earlyMorning' and 'early-morning' name the same meal. */
const mealWord = (v: unknown) =>
  typeof v === 'string'
    ? v
        .trim()
        .replace(/([a-z])([A-Z])/g, '$1-$2')
        .toLowerCase()
        .replace(/[\s_]+/g, '-')
    : v;
const MEAL_MESSAGE = `meal must be one of ${MEAL_KIND_KEYS.join(', ')}`;
export const mealKind = z.preprocess(mealWord, z.enum(MEAL_KIND_KEYS, { error: MEAL_MESSAGE }));

/** A moment as ISO 8601 text with its offset (or a Date over tRPC). */
const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export const momentField = (label: string) =>
  z.preprocess(
    // Only an ISO date or date and time is read as one (Date's own parser lets a trailing control character through).
    (v) => (typeof v === 'string' && ISO_MOMENT.test(v.trim()) ? new Date(v.trim()) : v),
    z.date({
      error: (iss) => (iss.input == null ? `${label} is required` : `${label} must be a date and time such as 2026-11-26T08:30:00+05:30`),
    }),
  );

const scale = (label: string) =>
  z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .number({ error: `${label} must be a number from 1 to 10` })
      .int(`${label} must be a whole number from 1 to 10`)
      .min(1, `${label} must be from 1 to 10`)
      .max(10, `${label} must be from 1 to 10`)
      .nullish(),
  );

const photoIds = z
  .array(z.uuid({ error: 'Each attachment id is an id POST /api/attachments answered (a UUID)' }), {
    error: 'attachmentIds must be a list of the ids POST /api/attachments answered',
  })
  .max(MEAL_PHOTOS_MAX, `A meal can have at most ${MEAL_PHOTOS_MAX} photos`);

export const mealDescription = requiredText('Write what you ate', MEAL_DESCRIPTION_MAX, { multiline: true });
/** A meal with no words, no foods and no photo says nothing: one of them is needed. */
export const MEAL_SAYS_NOTHING = 'Write what you ate, or add a food or a photo.';

/** The foods of a meal with their quantities (1½ katori, 2 roti, 150 g); an edit sends the whole new list. */
export const mealItems = z
  .array(foodQuantity, { error: 'items must be a list of { foodId, quantity, unit }' })
  .max(MEAL_ITEMS_MAX, `A meal can list at most ${MEAL_ITEMS_MAX} foods`);
export type MealItemInput = z.infer<typeof foodQuantity>;

/** The fields of a meal, as the form and the REST body send them. */
export const mealFields = z.object({
  /** The phone's own key for this entry (crypto.randomUUID(), kept while it retries or replays an offline queue). */
  clientEntryId: idempotencyKey('clientEntryId'),
  /** When it was eaten; now when left out. At most a day ahead. */
  eatenAt: momentField('eatenAt').optional(),
  meal: mealKind,
  /** What it was, in the client's words; may be left out when the meal lists foods or has a photo. */
  description: mealDescription.optional(),
  /** How hungry before eating, 1 (not at all) to 10 (starving). */
  hungerBefore: scale('Hunger before'),
  /** How full after, 1 (still hungry) to 10 (stuffed). */
  fullnessAfter: scale('Fullness after'),
  note: optionalText('The note', MEAL_NOTE_MAX, { multiline: true }),
  /** Photos uploaded first (POST /api/attachments), at most 4. */
  attachmentIds: photoIds.optional(),
  /** The foods eaten, from the food library (GET /api/foods), at most 20. */
  items: mealItems.optional(),
});
export const createMealInput = mealFields;

/** The add and edit form on a phone: the time as its datetime-local control gives it (the screen makes the moment). */
export const mealForm = z.object({
  meal: mealKind,
  eatenAt: z.string({ error: 'Say when you ate it' }).min(1, 'Say when you ate it'),
  /** Blank is fine when the meal lists foods or has a photo (the form checks, as the server does). */
  description: optionalText('What you ate', MEAL_DESCRIPTION_MAX, { multiline: true }),
  hungerBefore: scale('Hunger before'),
  fullnessAfter: scale('Fullness after'),
  note: optionalText('The note', MEAL_NOTE_MAX, { multiline: true }),
});
export type CreateMealInput = z.infer<typeof createMealInput>;

/** An edit names only what changes; attachmentIds, when given, is the whole new list of photos. */
export const updateMealFields = z.object({
  eatenAt: momentField('eatenAt').optional(),
  meal: mealKind.optional(),
  description: mealDescription.optional(),
  hungerBefore: scale('Hunger before'),
  fullnessAfter: scale('Fullness after'),
  note: optionalText('The note', MEAL_NOTE_MAX, { multiline: true }).optional(),
  attachmentIds: photoIds.optional(),
  items: mealItems.optional(),
});
export const updateMealInput = updateMealFields.extend({ id: idField('id') });
export type UpdateMealInput = z.infer<typeof updateMealInput>;

export const mealIdInput = z.object({ id: idField('id') });

/** A dietitian's estimate of a meal: the foods it shows (its photo, its words), replacing the foods it listed. */
export const estimateFields = z.object({ items: mealItems });
export const estimateInput = estimateFields.extend({ entryId: idField('entryId') });

export const listMealsInput = clientDaysInput;
export type ListMealsInput = z.infer<typeof listMealsInput>;

export const dayInput = z.object({
  clientId: idField('clientId').optional(),
  /** The day, 'YYYY-MM-DD'; today (India time) when left out. */
  date: dateField('date is required').optional(),
});

export const commentText = requiredText('Write a comment', MEAL_COMMENT_MAX, { multiline: true });
export const commentFields = z.object({
  text: commentText,
  /** Optional: a key made once per comment; a repeat answers the first comment. */
  clientCommentId: idempotencyKey('clientCommentId').optional(),
});
export const commentInput = commentFields.extend({ entryId: idField('entryId') });

export const markInput = z.object({
  entryId: idField('entryId'),
  /** null takes the mark away. */
  mark: z.enum(MEAL_MARK_KEYS, { error: `mark must be ${MEAL_MARK_KEYS.join(' or ')}, or null` }).nullable(),
});

export const waterQuery = z.object({
  clientId: idField('clientId').optional(),
  date: dateField('date is required').optional(),
});
export const waterInput = z.object({
  date: dateField('date is required'),
  glasses: z
    .number({ error: `glasses must be a whole number from 0 to ${WATER_GLASSES_MAX}` })
    .int(`glasses must be a whole number from 0 to ${WATER_GLASSES_MAX}`)
    .min(0, `glasses must be from 0 to ${WATER_GLASSES_MAX}`)
    .max(WATER_GLASSES_MAX, `glasses must be from 0 to ${WATER_GLASSES_MAX}`),
});

export const eventsInput = z.object({ clientId: idField('clientId').optional() });

export const mealComment = z.object({
  id: z.number().int(),
  entryId: z.number().int(),
  author: z.object({ id: z.number().int().nullable(), name: z.string(), role: z.enum(['client', 'dietitian']) }),
  text: z.string(),
  createdAt: z.date(),
});
export type MealComment = z.infer<typeof mealComment>;

/** A food of a meal as its readers see it. */
export const mealItem = z.object({
  foodId: z.number().int(),
  name: z.string(),
  nameHi: z.string().nullable(),
  kind: foodKind,
  quantity: z.number(),
  unit: measure,
  grams: z.number(),
  /** What it carries; null when the client's dietitian keeps the numbers from the client. */
  nutrients: nutrientAmounts.nullable(),
  /** A dietitian added it (an estimate of the meal), not the client. */
  byDietitian: z.boolean(),
});
export type MealItem = z.infer<typeof mealItem>;

export const mealEntry = z.object({
  id: z.number().int(),
  clientId: z.number().int(),
  clientEntryId: z.string(),
  meal: z.enum(MEAL_KIND_KEYS),
  eatenAt: z.date(),
  /** The day it counts for ('YYYY-MM-DD', India time). */
  date: z.string(),
  description: z.string(),
  hungerBefore: z.number().int().nullable(),
  fullnessAfter: z.number().int().nullable(),
  note: z.string().nullable(),
  photos: z.array(attachmentView),
  mark: z.object({ kind: z.enum(MEAL_MARK_KEYS), by: z.string().nullable(), at: z.date() }).nullable(),
  comments: z.array(mealComment),
  /** The foods it lists (none for a photo-only or text-only meal). */
  items: z.array(mealItem),
  /** The sum of its foods; null when it lists none, or when the numbers are kept from the client. */
  totals: nutrientTotal.nullable(),
  /** The client may still edit or delete it (an entry of the last 7 days). */
  editable: z.boolean(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type MealEntry = z.infer<typeof mealEntry>;
export const savedMealEntry = mealEntry.extend({ repeated: z.boolean() });

export const mealList = z.object({
  clientId: z.number().int(),
  from: z.string(),
  to: z.string(),
  /** Oldest first. */
  entries: z.array(mealEntry),
});

export const waterDay = z.object({ clientId: z.number().int(), date: z.string(), glasses: z.number().int() });

/** The diet plan's meals for a day, beside what was eaten. */
export const planMeals = z.object({
  planId: z.number().int(),
  title: z.string(),
  /** The plan's day this date falls on ('Monday', 'Day 3'); null for a PDF plan. */
  dayLabel: z.string().nullable(),
  /** null: the plan is a PDF (no meals to list). */
  meals: z.array(z.object({ time: z.string(), name: z.string(), items: z.array(z.string()), notes: z.string().nullable() })).nullable(),
});
export type PlanMeals = z.infer<typeof planMeals>;

export const journalDay = z.object({
  clientId: z.number().int(),
  date: z.string(),
  today: z.string(),
  /** Monday of the week `date` falls in (the week strip). */
  weekStart: z.string(),
  /** The first day whose entries the client may still change. */
  editableFrom: z.string(),
  entries: z.array(mealEntry),
  water: z.number().int(),
  plan: planMeals.nullable(),
  /** Days of the week around `date` with entries (the week strip's dots). */
  loggedDays: z.array(z.string()),
  /** false: the client's dietitian keeps the numbers from the client (then totals and targets are null for the client). */
  showNumbers: z.boolean(),
  /** The sum of the day's meals' foods; null when the numbers are kept from this reader. */
  totals: nutrientTotal.nullable(),
  /** The client's daily targets (empty when none is set); null when the numbers are kept from this reader. */
  targets: nutrientAmounts.nullable(),
});
export type JournalDay = z.infer<typeof journalDay>;

/** The follow-up queue's view of a client's journal. */
export const journalAdherence = z.object({
  /** Days with at least one meal logged among the last 7 (today included). */
  daysLogged: z.number().int(),
  /** The last day anything was logged, or null. */
  lastLogged: z.string().nullable(),
  /**
   * The week's intake against the targets, over the days whose meals list foods (a day with nothing
   * logged is not known, not zero): energy and protein eaten ÷ (daily target × those days); a share
   * is null without a target. null when no meal of the week lists foods.
   */
  intake: z.object({ daysWithFoods: z.number().int(), energyShare: z.number().nullable(), proteinShare: z.number().nullable() }).nullable(),
});
export type JournalAdherence = z.infer<typeof journalAdherence>;

/** What the `journal` NOTIFY channel carries: ids only. */
export type JournalSignal = { clientId: number; kind: 'entry' | 'comment' | 'water'; entryId: number | null; date: string };
export const isJournalSignal = (v: unknown): v is JournalSignal => {
  const s = v as Partial<JournalSignal> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    Number.isSafeInteger(s.clientId) &&
    (s.kind === 'entry' || s.kind === 'comment' || s.kind === 'water') &&
    (s.entryId === null || Number.isSafeInteger(s.entryId)) &&
    typeof s.date === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(s.date)
  );
};

/**
 * journal.events: 'ready' once listening (load the day), then 'changed' for
 * each entry, comment or water change of the client (reload that day).
 */
export type JournalEvent = { kind: 'ready' } | { kind: 'changed'; what: JournalSignal['kind']; entryId: number | null; date: string };
