import { z } from 'zod';

/**
 * The nutrients Poshan tracks, per 100 g of edible portion, in the units a dietitian reads
 * (kcal, g, mg, µg). One list for the database (`foods.per_100g` is keyed by these names), the
 * REST answers (`per100g`), the importers, the plan builder and the journal. Browser-safe: the
 * client imports this file.
 *
 * `label` is what the console prints; `short` fits a table header on a phone.
 */
export const NUTRIENTS = {
  energyKcal: { label: 'Energy', short: 'kcal', unit: 'kcal', decimals: 0 },
  energyKj: { label: 'Energy (kJ)', short: 'kJ', unit: 'kJ', decimals: 0 },
  proteinG: { label: 'Protein', short: 'Protein', unit: 'g', decimals: 1 },
  carbohydrateG: { label: 'Carbohydrate', short: 'Carbs', unit: 'g', decimals: 1 },
  fatG: { label: 'Fat', short: 'Fat', unit: 'g', decimals: 1 },
  saturatedFatG: { label: 'Saturated fat', short: 'Sat. fat', unit: 'g', decimals: 1 },
  fibreG: { label: 'Fibre', short: 'Fibre', unit: 'g', decimals: 1 },
  sugarsG: { label: 'Total sugars', short: 'Sugars', unit: 'g', decimals: 1 },
  sodiumMg: { label: 'Sodium', short: 'Sodium', unit: 'mg', decimals: 0 },
  potassiumMg: { label: 'Potassium', short: 'Potassium', unit: 'mg', decimals: 0 },
  calciumMg: { label: 'Calcium', short: 'Calcium', unit: 'mg', decimals: 0 },
  ironMg: { label: 'Iron', short: 'Iron', unit: 'mg', decimals: 1 },
  zincMg: { label: 'Zinc', short: 'Zinc', unit: 'mg', decimals: 1 },
  magnesiumMg: { label: 'Magnesium', short: 'Magnesium', unit: 'mg', decimals: 0 },
  vitaminAUg: { label: 'Vitamin A (RAE)', short: 'Vit A', unit: 'µg', decimals: 0 },
  vitaminCMg: { label: 'Vitamin C', short: 'Vit C', unit: 'mg', decimals: 1 },
  folateUg: { label: 'Folate', short: 'Folate', unit: 'µg', decimals: 0 },
  vitaminB12Ug: { label: 'Vitamin B12', short: 'B12', unit: 'µg', decimals: 2 },
  vitaminDUg: { label: 'Vitamin D', short: 'Vit D', unit: 'µg', decimals: 1 },
} as const;

export type NutrientKey = keyof typeof NUTRIENTS;
export const NUTRIENT_KEYS = Object.keys(NUTRIENTS) as [NutrientKey, ...NutrientKey[]];

/** The five a plan day and a journal day always show; the rest are chosen per client (targets). */
export const HEADLINE_NUTRIENTS = ['energyKcal', 'proteinG', 'carbohydrateG', 'fatG', 'fibreG'] as const satisfies readonly NutrientKey[];

/** Nutrient amounts; a missing key means "not known for this food", never zero. */
export type Nutrients = Partial<Record<NutrientKey, number>>;

/** kJ per kcal (the thermochemical calorie, as IFCT 2017 and FAO use). */
export const KJ_PER_KCAL = 4.184;

/** Upper bounds per 100 g that no real food passes (pure fat is ~900 kcal; salt is ~39 g sodium). */
const MAX_PER_100G: Record<NutrientKey, number> = {
  energyKcal: 950,
  energyKj: 3975,
  proteinG: 100,
  carbohydrateG: 100,
  fatG: 100,
  saturatedFatG: 100,
  fibreG: 100,
  sugarsG: 100,
  sodiumMg: 40_000,
  potassiumMg: 20_000,
  calciumMg: 40_000,
  ironMg: 1_000,
  zincMg: 1_000,
  magnesiumMg: 10_000,
  vitaminAUg: 100_000,
  vitaminCMg: 10_000,
  folateUg: 10_000,
  vitaminB12Ug: 1_000,
  vitaminDUg: 1_000,
};

/** A strict object of every nutrient, each optional, its number checked by `field` (values per 100 g, daily targets). */
export function nutrientObject(field: (key: NutrientKey, label: string, unit: string) => z.ZodNumber) {
  return z
    .object(
      Object.fromEntries(NUTRIENT_KEYS.map((key) => [key, field(key, NUTRIENTS[key].label, NUTRIENTS[key].unit).optional()])) as Record<
        NutrientKey,
        z.ZodOptional<z.ZodNumber>
      >,
    )
    .strict();
}

/** Values per 100 g as the API and the database take them: each known nutrient a number in its unit. */
export const per100gSchema = nutrientObject((key, label, unit) =>
  z
    .number({ error: `${label} must be a number (${unit} per 100 g)` })
    .finite(`${label} must be a number (${unit} per 100 g)`)
    .min(0, `${label} cannot be negative`)
    .max(MAX_PER_100G[key], `${label} cannot be more than ${MAX_PER_100G[key]} ${unit} per 100 g`),
);

/**
 * The sanity rules every food passes, whatever its source (IFCT import, a clinic's CSV, the
 * console): parts never exceed their whole, and the energy stated agrees with the energy its
 * macronutrients carry (Atwater: 4 kcal/g protein and carbohydrate, 9 fat, 2 fibre) within
 * ATWATER_TOLERANCE. Returns each problem in words a dietitian can act on; [] when sound.
 */
export const ATWATER_TOLERANCE = { relative: 0.15, absoluteKcal: 15 } as const;

export function nutrientProblems(v: Nutrients): string[] {
  const problems: string[] = [];
  const over = (part: NutrientKey, whole: number | undefined, words: string) => {
    const p = v[part];
    if (p !== undefined && whole !== undefined && p > whole + 0.05) problems.push(words);
  };
  over('saturatedFatG', v.fatG, `Saturated fat (${v.saturatedFatG} g) is more than total fat (${v.fatG} g)`);
  over('sugarsG', v.carbohydrateG, `Total sugars (${v.sugarsG} g) are more than carbohydrate (${v.carbohydrateG} g)`);
  const macros = (v.proteinG ?? 0) + (v.carbohydrateG ?? 0) + (v.fatG ?? 0) + (v.fibreG ?? 0);
  if (macros > 100.5)
    problems.push(`Protein, carbohydrate, fat and fibre add up to ${round(macros, 1)} g, more than the 100 g they are part of`);
  if (
    v.energyKcal !== undefined &&
    v.energyKj !== undefined &&
    Math.abs(v.energyKcal * KJ_PER_KCAL - v.energyKj) > Math.max(5, v.energyKj * 0.02)
  ) {
    problems.push(`Energy ${v.energyKcal} kcal and ${v.energyKj} kJ disagree (1 kcal is ${KJ_PER_KCAL} kJ)`);
  }
  const atwater = atwaterKcal(v);
  if (v.energyKcal !== undefined && atwater !== null) {
    const gap = Math.abs(v.energyKcal - atwater);
    if (gap > Math.max(ATWATER_TOLERANCE.absoluteKcal, atwater * ATWATER_TOLERANCE.relative)) {
      problems.push(
        `Energy ${v.energyKcal} kcal is far from the ${Math.round(atwater)} kcal its protein, carbohydrate, fat and fibre carry (4/4/9/2 kcal per g)`,
      );
    }
  }
  return problems;
}

/** Energy from the macronutrients (4/4/9, fibre 2), or null when protein, carbohydrate or fat is unknown. */
export function atwaterKcal(v: Nutrients): number | null {
  if (v.proteinG === undefined || v.carbohydrateG === undefined || v.fatG === undefined) return null;
  return 4 * v.proteinG + 4 * v.carbohydrateG + 9 * v.fatG + 2 * (v.fibreG ?? 0);
}

export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/** An amount as the screens print it: the nutrient's own precision and unit ("12.4 g", "320 kcal"). */
export function formatNutrient(key: NutrientKey, value: number): string {
  const { decimals, unit } = NUTRIENTS[key];
  return `${round(value, decimals).toLocaleString('en-IN', { maximumFractionDigits: decimals })} ${unit}`;
}
