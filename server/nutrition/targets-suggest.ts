import { round, type NutrientKey, type Nutrients } from './nutrients.js';
import { ACTIVITY_FACTORS, type SuggestionInput, type Suggestion } from './targets-schema.js';

/**
 * Suggested daily targets for an adult, for the dietitian to accept or change (decision 130 says
 * where each number comes from). Browser-safe and pure.
 *
 * - Energy: resting energy by Mifflin–St Jeor (1990) × the activity factor.
 * - Protein: g per kg of body weight (ICMR–NIN 2020's adult RDA, 0.83 g/kg, unless the dietitian
 *   says otherwise); fat: a share of energy; carbohydrate: the energy protein and fat leave.
 * - Fibre: 14 g per 1000 kcal (the US Institute of Medicine's adequate intake; ICMR–NIN gives none
 *   per person).
 * - Micronutrients: ICMR–NIN 2020 RDAs for the adult man and woman (sedentary), of which the
 *   dietitian chooses the ones to follow.
 */

export const REFERENCE = 'ICMR–NIN 2020, Nutrient Requirements for Indians: RDA summary table, adult (sedentary) man and woman';

/** ICMR–NIN 2020 RDAs per day for adults (the summary table's sedentary man and woman). */
export const ICMR_NIN_2020_ADULT: Record<SuggestionInput['sex'], Nutrients> = {
  male: {
    calciumMg: 1000,
    magnesiumMg: 440,
    ironMg: 19,
    zincMg: 17,
    vitaminAUg: 1000,
    vitaminDUg: 15,
    vitaminCMg: 80,
    folateUg: 300,
    vitaminB12Ug: 2.5,
    potassiumMg: 3510,
  },
  female: {
    calciumMg: 1000,
    magnesiumMg: 370,
    ironMg: 29,
    zincMg: 13.2,
    vitaminAUg: 840,
    vitaminDUg: 15,
    vitaminCMg: 65,
    folateUg: 220,
    vitaminB12Ug: 2.5,
    potassiumMg: 3510,
  },
};

/** The micronutrients a suggestion follows unless the dietitian picks others: the common shortfalls of Indian diets. */
export const DEFAULT_MICRONUTRIENTS: readonly NutrientKey[] = ['ironMg', 'calciumMg', 'vitaminB12Ug'];

export const FIBRE_G_PER_1000_KCAL = 14;

/** Mifflin–St Jeor resting energy, kcal a day. */
export function mifflinStJeor(p: Pick<SuggestionInput, 'sex' | 'weightKg' | 'heightCm' | 'ageYears'>): number {
  return 10 * p.weightKg + 6.25 * p.heightCm - 5 * p.ageYears + (p.sex === 'male' ? 5 : -161);
}

/**
 * The suggestion for one person. Energy is rounded to the kcal and grams to 0.1 g first, and the
 * carbohydrate is worked out from the rounded figures, so the macros' energy adds up to the
 * energy target (4/4/9 kcal per g) to within rounding. `energyChangeKcal` moves the energy for a
 * loss or a gain (the macros follow it: protein stays per kg, fat its share, carbohydrate the rest).
 */
export function suggestTargets(
  person: SuggestionInput,
  opts: { micronutrients?: readonly NutrientKey[]; energyChangeKcal?: number } = {},
): Suggestion {
  const micronutrients = opts.micronutrients ?? DEFAULT_MICRONUTRIENTS;
  const restingKcal = mifflinStJeor(person);
  const activityFactor = ACTIVITY_FACTORS[person.activity];
  const energyKcal = Math.round(restingKcal * activityFactor) + Math.round(opts.energyChangeKcal ?? 0);
  const proteinG = round(person.proteinGPerKg * person.weightKg, 1);
  const fatG = round((energyKcal * person.fatPercent) / 100 / 9, 1);
  const carbohydrateG = round(Math.max(0, energyKcal - 4 * proteinG - 9 * fatG) / 4, 1);
  const fibreG = round((energyKcal / 1000) * FIBRE_G_PER_1000_KCAL, 1);
  const recommended = ICMR_NIN_2020_ADULT[person.sex];
  const targets: Nutrients = { energyKcal, proteinG, carbohydrateG, fatG, fibreG };
  for (const key of micronutrients) {
    const value = recommended[key];
    if (value !== undefined) targets[key] = value;
  }
  return { targets, restingKcal: Math.round(restingKcal), activityFactor, recommended, basis: person, reference: REFERENCE };
}

/** Grams of each macronutrient given as a percentage of the day's energy (4 kcal/g protein and carbohydrate, 9 fat). */
export function gramsFromPercent(energyKcal: number, percent: Partial<Record<'proteinG' | 'carbohydrateG' | 'fatG', number>>): Nutrients {
  const perGram = { proteinG: 4, carbohydrateG: 4, fatG: 9 } as const;
  const out: Nutrients = {};
  for (const key of ['proteinG', 'carbohydrateG', 'fatG'] as const) {
    const p = percent[key];
    if (p !== undefined) out[key] = round((energyKcal * p) / 100 / perGram[key], 1);
  }
  return out;
}
