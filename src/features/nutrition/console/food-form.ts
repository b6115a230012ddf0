import type { z } from 'zod';
import { createFoodInput } from '../../../../server/nutrition/foods-schema';
import { NUTRIENT_KEYS, type NutrientKey, nutrientProblems } from '../../../../server/nutrition/nutrients';
import type { FoodDetail } from '../../../../server/nutrition/foods-schema';

/**
 * The console's food form as the person types it (text in every box) and the way to the API's
 * shape: the same createFoodInput the server checks, so each rule and message is written once.
 */
export type FoodFormValues = {
  name: string;
  nameHi: string;
  /** One alias per line (or separated by commas). */
  aliases: string;
  group: string;
  nutrients: Record<NutrientKey, string>;
  portions: { unit: string; grams: string }[];
};

export const emptyFoodForm = (): FoodFormValues => ({
  name: '',
  nameHi: '',
  aliases: '',
  group: 'dishes',
  nutrients: Object.fromEntries(NUTRIENT_KEYS.map((k) => [k, ''])) as Record<NutrientKey, string>,
  portions: [],
});

export function foodFormFrom(food: FoodDetail): FoodFormValues {
  return {
    name: food.name,
    nameHi: food.nameHi ?? '',
    aliases: food.aliases.join('\n'),
    group: food.group,
    nutrients: Object.fromEntries(NUTRIENT_KEYS.map((k) => [k, food.per100g[k] === undefined ? '' : String(food.per100g[k])])) as Record<
      NutrientKey,
      string
    >,
    portions: food.portions.map((p) => ({ unit: p.unit, grams: String(p.grams) })),
  };
}

export type FoodFormResult =
  | { ok: true; value: z.output<typeof createFoodInput> }
  /** `fields` keyed by the form's own field names (nutrients.proteinG, portions.0.grams); `form` is about the whole. */
  | { ok: false; fields: Record<string, string>; form: string[] };

const number = (text: string) => (text.trim() === '' ? undefined : Number(text.trim().replace(',', '.')));

/** Checks the form with the API's schema and the sanity rules; the value to send, or each problem where it belongs. */
export function readFoodForm(values: FoodFormValues): FoodFormResult {
  const per100g: Record<string, number> = {};
  for (const key of NUTRIENT_KEYS) {
    const v = number(values.nutrients[key]);
    if (v !== undefined) per100g[key] = v;
  }
  const parsed = createFoodInput.safeParse({
    name: values.name,
    nameHi: values.nameHi,
    aliases: values.aliases
      .split(/[\n,;]/)
      .map((a) => a.trim())
      .filter(Boolean),
    group: values.group,
    per100g,
    portions: values.portions.map((p) => ({ unit: p.unit, grams: number(p.grams) ?? Number.NaN })),
  });
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    const form: string[] = [];
    for (const issue of parsed.error.issues) {
      const [first, second, third] = issue.path;
      const field =
        first === 'per100g' && typeof second === 'string'
          ? `nutrients.${second}`
          : first === 'portions' && typeof second === 'number'
            ? `portions.${second}.${String(third ?? 'grams')}`
            : first === 'aliases'
              ? 'aliases'
              : typeof first === 'string' && first !== 'portions' && first !== 'per100g'
                ? first
                : null;
      if (field && !fields[field]) fields[field] = issue.message;
      else if (!field) form.push(issue.message);
    }
    return { ok: false, fields, form };
  }
  const problems = nutrientProblems(parsed.data.per100g);
  if (problems.length > 0) return { ok: false, fields: {}, form: problems };
  return { ok: true, value: parsed.data };
}
