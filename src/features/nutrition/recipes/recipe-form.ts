import type { z } from 'zod';
import { type Total, nutrientsIn, recipePer100g } from '../../../../server/nutrition/compute';
import { NUTRIENT_KEYS, type NutrientKey, type Nutrients } from '../../../../server/nutrition/nutrients';
import { createRecipeInput } from '../../../../server/nutrition/recipes-schema';
import type { FoodSummary } from '../../../../server/nutrition/schema';

/**
 * The recipe editor's values as the dietitian types them, the live values they give (the server's
 * own arithmetic: compute.ts), and the way to the API's shape, checked with the API's schema.
 */

export type IngredientRow = { food: Pick<FoodSummary, 'id' | 'name' | 'nameHi' | 'kind' | 'per100g'>; grams: string };

export type RecipeForm = {
  name: string;
  nameHi: string;
  aliases: string;
  group: string;
  ingredients: IngredientRow[];
  cookedGrams: string;
  servingGrams: string;
};

export const emptyRecipeForm = (): RecipeForm => ({
  name: '',
  nameHi: '',
  aliases: '',
  group: 'dishes',
  ingredients: [],
  cookedGrams: '',
  servingGrams: '',
});

const number = (t: string) => (t.trim() === '' ? undefined : Number(t.trim().replace(',', '.')));
const positive = (t: string) => {
  const v = number(t);
  return v !== undefined && Number.isFinite(v) && v > 0 ? v : undefined;
};

export type LiveValues = {
  rawGrams: number;
  /** Per 100 g and per serving, as totals (with how many ingredients do not know each nutrient). */
  per100g: Total | null;
  perServing: Total | null;
};

/** What the recipe gives as it stands on screen; null parts until the weights needed are typed. */
export function liveValues(form: RecipeForm): LiveValues {
  const parts = form.ingredients.flatMap((row) => {
    const grams = positive(row.grams);
    return grams === undefined ? [] : [{ per100g: row.food.per100g as Nutrients, grams }];
  });
  const rawGrams = parts.reduce((sum, p) => sum + p.grams, 0);
  const cooked = positive(form.cookedGrams);
  if (parts.length === 0 || cooked === undefined) return { rawGrams, per100g: null, perServing: null };
  const missing: Partial<Record<NutrientKey, number>> = {};
  for (const key of NUTRIENT_KEYS) {
    const lacking = parts.filter((p) => p.per100g[key] === undefined).length;
    if (lacking > 0) missing[key] = lacking;
  }
  const values = recipePer100g(parts, cooked);
  const per100g: Total = { values, missing, items: parts.length };
  const serving = positive(form.servingGrams);
  return {
    rawGrams,
    per100g,
    perServing: serving === undefined ? null : { values: nutrientsIn(values, serving), missing, items: parts.length },
  };
}

export type ReadRecipe =
  | { ok: true; value: z.output<typeof createRecipeInput> }
  | { ok: false; fields: Record<string, string>; form: string[] };

/** Checks the form with the API's own schema; the value to send, or each problem where it belongs. */
export function readRecipe(form: RecipeForm): ReadRecipe {
  const parsed = createRecipeInput.safeParse({
    name: form.name,
    nameHi: form.nameHi,
    aliases: form.aliases
      .split(/[\n,;]/)
      .map((a) => a.trim())
      .filter(Boolean),
    group: form.group,
    ingredients: form.ingredients.map((row) => ({ foodId: row.food.id, grams: number(row.grams) ?? Number.NaN })),
    cookedGrams: number(form.cookedGrams) ?? Number.NaN,
    servingGrams: number(form.servingGrams) ?? Number.NaN,
  });
  if (parsed.success) return { ok: true, value: parsed.data };
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const issue of parsed.error.issues) {
    const [first, second, third] = issue.path;
    const field =
      first === 'ingredients' && typeof second === 'number'
        ? `ingredients.${second}.${String(third ?? 'grams')}`
        : typeof first === 'string'
          ? first
          : null;
    if (field && !fields[field]) fields[field] = issue.message;
    else if (!field) rest.push(issue.message);
  }
  return { ok: false, fields, form: rest };
}
