import { z } from 'zod';
import { idField } from '../validation.js';
import type { ACTIVITY_LEVELS } from '../care-record/schema.js';
import { HEADLINE_NUTRIENTS, NUTRIENT_KEYS, type NutrientKey, type Nutrients, nutrientObject } from './nutrients.js';

/**
 * A client's daily nutrition targets as the API, the console and the client screens share them
 * (REST `/api/nutrition-targets`, tRPC `nutritionTargets.*`). Browser-safe.
 *
 * Targets are daily amounts keyed by nutrient (grams, kcal, mg, µg: the units of nutrients.ts).
 * The five headline nutrients are always shown; any other nutrient with a target is one the
 * dietitian chose to follow for this client (iron for anaemia, calcium...).
 */

/**
 * The factor that turns resting energy (Mifflin–St Jeor) into a day's need, per activity level of
 * the intake questionnaire (the same keys and words: care-record/schema.ts).
 */
export const ACTIVITY_FACTORS = {
  sedentary: 1.2,
  light: 1.375,
  moderate: 1.55,
  active: 1.725,
  'very-active': 1.9,
} as const satisfies Record<keyof typeof ACTIVITY_LEVELS, number>;
export type ActivityLevel = keyof typeof ACTIVITY_FACTORS;
export const ACTIVITY_KEYS = Object.keys(ACTIVITY_FACTORS) as [ActivityLevel, ...ActivityLevel[]];

/** Highest daily target the API takes per nutrient: far above any real need, low enough to catch a slip of the keyboard. */
export const MAX_DAILY: Record<NutrientKey, number> = {
  energyKcal: 8000,
  energyKj: 33_500,
  proteinG: 500,
  carbohydrateG: 1200,
  fatG: 400,
  saturatedFatG: 200,
  fibreG: 150,
  sugarsG: 300,
  sodiumMg: 10_000,
  potassiumMg: 10_000,
  calciumMg: 5000,
  ironMg: 200,
  zincMg: 100,
  magnesiumMg: 2000,
  vitaminAUg: 10_000,
  vitaminCMg: 3000,
  folateUg: 2000,
  vitaminB12Ug: 1000,
  vitaminDUg: 250,
};

/** Daily targets as the dietitian sets them: each a positive amount in its nutrient's unit. */
export const dailyTargets = nutrientObject((key, label, unit) =>
  z
    .number({ error: `${label} target must be a number (${unit} a day)` })
    .finite(`${label} target must be a number (${unit} a day)`)
    .positive(`${label} target must be more than 0 ${unit}`)
    .max(MAX_DAILY[key], `${label} target cannot be more than ${MAX_DAILY[key]} ${unit} a day`),
);

export const sex = z.enum(['female', 'male'], { error: 'Sex must be female or male (the energy equations differ)' });
export const activityLevel = z.enum(ACTIVITY_KEYS, { error: `Activity must be one of ${ACTIVITY_KEYS.join(', ')}` });

/** What a suggestion is computed from; kept with the targets so a dietitian sees what they rest on. */
export const suggestionInput = z.object({
  ageYears: z
    .number({ error: 'Age must be a number of years' })
    .int('Age must be whole years')
    .min(18, 'Suggestions are for adults (18 and over); set a child’s targets by hand')
    .max(110, 'Age must be at most 110 years'),
  sex,
  weightKg: z
    .number({ error: 'Weight must be a number (kg)' })
    .min(25, 'Weight must be at least 25 kg')
    .max(300, 'Weight must be at most 300 kg'),
  heightCm: z
    .number({ error: 'Height must be a number (cm)' })
    .min(100, 'Height must be at least 100 cm')
    .max(250, 'Height must be at most 250 cm'),
  activity: activityLevel,
  /** Protein per kg of body weight a day (ICMR–NIN's adult RDA is 0.83 g/kg). */
  proteinGPerKg: z
    .number({ error: 'Protein must be a number (g per kg a day)' })
    .min(0.5, 'Protein must be at least 0.5 g per kg')
    .max(2.5, 'Protein must be at most 2.5 g per kg')
    .default(0.83),
  /** Fat as a share of energy, in percent; carbohydrate takes what protein and fat leave. */
  fatPercent: z
    .number({ error: 'Fat must be a percentage of energy' })
    .min(10, 'Fat must be at least 10 % of energy')
    .max(45, 'Fat must be at most 45 % of energy')
    .default(25),
});
export type SuggestionInput = z.infer<typeof suggestionInput>;
export type SuggestionInputFields = z.input<typeof suggestionInput>;

/** A suggestion: the targets and the numbers they come from, for the dietitian to accept or change. */
export const suggestion = z.object({
  targets: dailyTargets,
  /** Resting energy (Mifflin–St Jeor), kcal a day. */
  restingKcal: z.number(),
  activityFactor: z.number(),
  /** Recommended daily intakes of every micronutrient the reference has, whether chosen or not. */
  recommended: dailyTargets,
  basis: suggestionInput,
  reference: z.string(),
});
export type Suggestion = z.infer<typeof suggestion>;

const clientIdField = idField('clientId');

/** A client reads their own (no clientId); a dietitian names the client. */
export const targetsQuery = z.object({ clientId: clientIdField.optional() });

/** Macronutrients given as a share of energy (percent); turned into grams with 4/4/9 kcal per gram. */
export const percentOfEnergy = z
  .object({
    proteinG: z.number().min(1, 'Protein must be at least 1 % of energy').max(60, 'Protein must be at most 60 % of energy').optional(),
    carbohydrateG: z
      .number()
      .min(1, 'Carbohydrate must be at least 1 % of energy')
      .max(85, 'Carbohydrate must be at most 85 % of energy')
      .optional(),
    fatG: z.number().min(1, 'Fat must be at least 1 % of energy').max(70, 'Fat must be at most 70 % of energy').optional(),
  })
  .strict();

/** How the dietitian arrived at the targets: the suggestion's inputs, and macros given in % of energy. */
export const targetsBasis = z.object({
  suggestion: suggestionInput.nullable().default(null),
  percentOfEnergy: percentOfEnergy.nullable().default(null),
});
export type TargetsBasis = z.infer<typeof targetsBasis>;

export const setTargetsFields = z.object({
  /** Daily amounts; macros may instead come as percentOfEnergy (energyKcal is then required). */
  targets: dailyTargets,
  percentOfEnergy: percentOfEnergy.optional(),
  /** Whether the client sees numbers (energy, grams, shares) anywhere. Off in eating-disorder care. */
  showNumbers: z.boolean({ error: 'showNumbers must be true or false' }),
  /** The suggestion the targets started from, when one was used. */
  suggestion: suggestionInput.optional(),
});
export const setTargetsInput = setTargetsFields.extend({ clientId: clientIdField });
export type SetTargetsInput = z.infer<typeof setTargetsInput>;

/** The facts about a person a suggestion rests on, each optional: what the client's record holds. */
export const personFacts = suggestionInput.pick({ ageYears: true, sex: true, weightKg: true, heightCm: true, activity: true }).partial();

/** A suggestion for a client: the record's facts, with what the dietitian typed taking their place. */
export const suggestInput = z.object({ clientId: clientIdField, person: suggestionInput.partial().optional() });
export const suggestionAnswer = suggestion.extend({ fromRecord: personFacts });
export type SuggestionAnswer = z.infer<typeof suggestionAnswer>;

/**
 * A client's targets as a viewer may see them. When the client may not see numbers and is the
 * one reading, `targets` and `basis` are null and `micronutrients` empty: the answer carries no
 * number at all, whatever screen asked.
 */
export const targetsView = z.object({
  clientId: z.number().int(),
  /** Whether a dietitian has set targets for this client. */
  set: z.boolean(),
  showNumbers: z.boolean(),
  targets: dailyTargets.nullable(),
  /** The nutrients beyond the headline five that the dietitian follows for this client, in display order. */
  micronutrients: z.array(z.enum(NUTRIENT_KEYS)),
  basis: targetsBasis.nullable(),
  updatedAt: z.string().nullable(),
});
export type TargetsView = z.infer<typeof targetsView>;

/** The nutrients with a target beyond the headline five, in the order nutrients.ts lists them. */
export function chosenMicronutrients(targets: Nutrients): NutrientKey[] {
  const headline = new Set<NutrientKey>([...HEADLINE_NUTRIENTS, 'energyKj']);
  return NUTRIENT_KEYS.filter((key) => !headline.has(key) && targets[key] !== undefined);
}

/** Everything a totals panel shows for a client: the headline five, then the chosen micronutrients. */
export function shownNutrients(targets: Nutrients | null | undefined): NutrientKey[] {
  return [...HEADLINE_NUTRIENTS, ...(targets ? chosenMicronutrients(targets) : [])];
}
