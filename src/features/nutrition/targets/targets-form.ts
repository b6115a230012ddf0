import { HEADLINE_NUTRIENTS, NUTRIENT_KEYS, type NutrientKey, type Nutrients } from '../../../../server/nutrition/nutrients';
import {
  type SuggestionInput,
  type TargetsView,
  chosenMicronutrients,
  setTargetsFields,
  suggestionInput,
} from '../../../../server/nutrition/targets-schema';
import { ICMR_NIN_2020_ADULT, suggestTargets } from '../../../../server/nutrition/targets-suggest';

/**
 * The targets editor's values as the dietitian types them (text in every box) and the ways to the
 * API's shapes, checked with the API's own schemas so each rule and message is written once.
 */

/** The nutrients a dietitian may follow beyond the headline five (energy in kJ is the same as kcal). */
export const MICRONUTRIENT_CHOICES: NutrientKey[] = NUTRIENT_KEYS.filter(
  (k) => !(HEADLINE_NUTRIENTS as readonly NutrientKey[]).includes(k) && k !== 'energyKj',
);

export type PersonForm = Record<'ageYears' | 'sex' | 'weightKg' | 'heightCm' | 'activity' | 'proteinGPerKg' | 'fatPercent', string>;

export type TargetsForm = {
  amounts: Record<NutrientKey, string>;
  /** The micronutrients followed (their boxes shown). */
  chosen: NutrientKey[];
  showNumbers: boolean;
};

const text = (v: number | undefined) => (v === undefined ? '' : String(v));
const number = (t: string) => (t.trim() === '' ? undefined : Number(t.trim().replace(',', '.')));

export function personForm(facts: Partial<SuggestionInput> | undefined, saved: SuggestionInput | null | undefined): PersonForm {
  const p = { ...facts, ...(saved ?? {}) };
  return {
    ageYears: text(p.ageYears),
    sex: p.sex ?? '',
    weightKg: text(p.weightKg),
    heightCm: text(p.heightCm),
    activity: p.activity ?? '',
    proteinGPerKg: text(p.proteinGPerKg ?? 0.83),
    fatPercent: text(p.fatPercent ?? 25),
  };
}

export function targetsForm(view: TargetsView | undefined): TargetsForm {
  const targets: Nutrients = view?.targets ?? {};
  return {
    amounts: Object.fromEntries(NUTRIENT_KEYS.map((k) => [k, text(targets[k])])) as Record<NutrientKey, string>,
    chosen: chosenMicronutrients(targets),
    showNumbers: view?.showNumbers ?? true,
  };
}

/** The person as the suggestion takes it, or each problem by field. */
export function readPerson(
  form: PersonForm,
): { ok: true; person: SuggestionInput } | { ok: false; errors: Partial<Record<keyof PersonForm, string>> } {
  const parsed = suggestionInput.safeParse({
    ageYears: number(form.ageYears),
    sex: form.sex || undefined,
    weightKg: number(form.weightKg),
    heightCm: number(form.heightCm),
    activity: form.activity || undefined,
    proteinGPerKg: number(form.proteinGPerKg),
    fatPercent: number(form.fatPercent),
  });
  if (parsed.success) return { ok: true, person: parsed.data };
  const errors: Partial<Record<keyof PersonForm, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof PersonForm;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

/** The suggestion put into the form: the headline five, and the chosen micronutrients at the RDA. */
export function applySuggestion(form: TargetsForm, person: SuggestionInput): TargetsForm {
  const suggestion = suggestTargets(person, { micronutrients: form.chosen.length > 0 ? form.chosen : undefined });
  const amounts = { ...form.amounts };
  for (const key of NUTRIENT_KEYS) if (suggestion.targets[key] !== undefined) amounts[key] = String(suggestion.targets[key]);
  return { ...form, amounts, chosen: chosenMicronutrients(suggestion.targets) };
}

/** The recommended amount to start a newly chosen micronutrient at (the ICMR–NIN RDA for the sex, when known). */
export function startingAmount(key: NutrientKey, sex: string): string {
  const table = sex === 'male' || sex === 'female' ? ICMR_NIN_2020_ADULT[sex] : undefined;
  return text(table?.[key]);
}

/** The share of energy a macronutrient's grams carry (4/4/9 kcal per g), for the line beside its box. */
export function percentOfEnergy(key: 'proteinG' | 'carbohydrateG' | 'fatG', form: TargetsForm): number | null {
  const energy = number(form.amounts.energyKcal);
  const grams = number(form.amounts[key]);
  if (!energy || grams === undefined || Number.isNaN(grams)) return null;
  return Math.round(((grams * (key === 'fatG' ? 9 : 4)) / energy) * 100);
}

export type ReadTargets =
  | { ok: true; value: { targets: Nutrients; showNumbers: boolean } }
  | { ok: false; errors: Partial<Record<NutrientKey, string>>; form: string[] };

/** The targets to send (the headline five and the chosen micronutrients with an amount), or each problem. */
export function readTargets(form: TargetsForm): ReadTargets {
  const targets: Record<string, number | undefined> = {};
  for (const key of [...HEADLINE_NUTRIENTS, ...form.chosen]) {
    const v = number(form.amounts[key]);
    if (v !== undefined) targets[key] = v;
  }
  const parsed = setTargetsFields.safeParse({ targets, showNumbers: form.showNumbers });
  if (!parsed.success) {
    const errors: Partial<Record<NutrientKey, string>> = {};
    const rest: string[] = [];
    for (const issue of parsed.error.issues) {
      const [first, second] = issue.path;
      if (first === 'targets' && typeof second === 'string') errors[second as NutrientKey] ??= issue.message;
      else rest.push(issue.message);
    }
    return { ok: false, errors, form: rest };
  }
  return { ok: true, value: { targets: parsed.data.targets, showNumbers: parsed.data.showNumbers } };
}
