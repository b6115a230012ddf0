import { FoodGroupOptions } from '../FoodGroupOptions';
import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { createFoodInput } from '../../../../server/nutrition/foods-schema';
import { defaultPortions, type FoodGroup } from '../../../../server/nutrition/groups';
import { MEASURE_KEYS, MEASURES } from '../../../../server/nutrition/measures';
import { NUTRIENT_KEYS, NUTRIENTS, type NutrientKey } from '../../../../server/nutrition/nutrients';
import { Button } from '../../../components/ui/Button';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/Field';
import { type FoodFormValues, readFoodForm } from './food-form';

/** "Protein (g)"; a label that names its unit already ("Energy (kJ)") keeps it once. */
const nutrientLabel = (key: NutrientKey) => {
  const { label, unit } = NUTRIENTS[key];
  return label.includes(`(${unit})`) ? label : `${label} (${unit})`;
};

const HOUSEHOLD = MEASURE_KEYS.filter((k) => k !== 'g' && k !== 'ml');

/**
 * A food's names, group, values per 100 g and household portions, as the console adds or edits
 * it. Checked in the browser with the API's own schema and sanity rules before it is sent;
 * `valuesLocked` (a recipe, whose values follow from its ingredients) shows the values without boxes.
 */
export function FoodForm({
  defaults,
  submitLabel,
  valuesLocked = false,
  onSubmit,
}: {
  defaults: FoodFormValues;
  submitLabel: string;
  valuesLocked?: boolean;
  onSubmit: (value: z.output<typeof createFoodInput>) => Promise<void>;
}) {
  const form = useForm<FoodFormValues>({ defaultValues: defaults });
  const portions = useFieldArray({ control: form.control, name: 'portions' });
  const [problems, setProblems] = useState<string[]>([]);
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async (values) => {
    const read = readFoodForm(valuesLocked ? { ...values, nutrients: defaults.nutrients } : values);
    if (!read.ok) {
      setProblems(read.form);
      for (const [i, [field, message]] of Object.entries(read.fields).entries()) {
        form.setError(field as keyof FoodFormValues, { message }, { shouldFocus: i === 0 });
      }
      return;
    }
    setProblems([]);
    await onSubmit(read.value);
  });

  const addGroupPortions = () => {
    const group = form.getValues('group') as FoodGroup;
    const have = new Set(form.getValues('portions').map((p) => p.unit));
    for (const p of defaultPortions(group)) if (!have.has(p.unit)) portions.append({ unit: p.unit, grams: String(p.grams) });
  };

  return (
    <form method="post" onSubmit={submit} noValidate className="flex flex-col gap-6" data-testid="food-form">
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-lg font-semibold text-slate-900">Names</legend>
        <TextField label="Name (English)" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        <TextField
          label="Hindi name"
          lang="hi"
          autoComplete="off"
          hint="In Devanagari, e.g. पनीर"
          error={errors.nameHi?.message}
          {...form.register('nameHi')}
        />
        <div className="sm:col-span-2">
          <TextAreaField
            label="Other names (aliases)"
            rows={3}
            hint="One per line: local names and transliterations people search by, e.g. toor dal, arhar"
            error={errors.aliases?.message}
            {...form.register('aliases')}
          />
        </div>
        <SelectField label="Food group" error={errors.group?.message} {...form.register('group')}>
          <FoodGroupOptions />
        </SelectField>
      </fieldset>

      <fieldset>
        <legend className="mb-1 text-lg font-semibold text-slate-900">Values per 100 g</legend>
        <p className="mb-3 text-sm text-slate-600">
          {valuesLocked
            ? 'A recipe’s values follow from its ingredients and cooked weight.'
            : 'Of the edible portion. Leave a box empty when the value is not known (it is not counted as 0).'}
        </p>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          {NUTRIENT_KEYS.map((key) => (
            <TextField
              key={key}
              label={nutrientLabel(key)}
              inputMode="decimal"
              autoComplete="off"
              readOnly={valuesLocked}
              error={errors.nutrients?.[key]?.message}
              {...form.register(`nutrients.${key}`)}
            />
          ))}
        </div>
      </fieldset>

      <fieldset>
        <legend className="mb-1 text-lg font-semibold text-slate-900">Household portions</legend>
        <p className="mb-3 text-sm text-slate-600">
          Grams of one of each measure of this food as it is listed (a katori of cooked dal is not one of raw rice).
        </p>
        <ul className="flex flex-col gap-3" data-testid="portion-rows">
          {portions.fields.map((field, i) => (
            <li key={field.id} className="flex items-end gap-2">
              <div className="w-36">
                <SelectField
                  label="Measure"
                  hideLabel={i > 0}
                  error={errors.portions?.[i]?.unit?.message}
                  {...form.register(`portions.${i}.unit`)}
                >
                  {HOUSEHOLD.map((unit) => (
                    <option key={unit} value={unit}>
                      {MEASURES[unit].one}
                    </option>
                  ))}
                </SelectField>
              </div>
              <div className="w-28">
                <TextField
                  label="Grams"
                  hideLabel={i > 0}
                  inputMode="decimal"
                  autoComplete="off"
                  error={errors.portions?.[i]?.grams?.message}
                  {...form.register(`portions.${i}.grams`)}
                />
              </div>
              <Button type="button" variant="ghost" size="sm" onClick={() => portions.remove(i)} aria-label={`Remove portion ${i + 1}`}>
                <Trash2 className="h-4 w-4" aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
        {errors.portions?.root?.message && (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {errors.portions.root.message}
          </p>
        )}
        <div className="mt-3 flex flex-wrap gap-2">
          <Button type="button" variant="secondary" size="sm" onClick={() => portions.append({ unit: 'katori', grams: '' })}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            Add a portion
          </Button>
          <Button type="button" variant="ghost" size="sm" onClick={addGroupPortions}>
            Add the group’s usual portions
          </Button>
        </div>
      </fieldset>

      {problems.length > 0 && (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-testid="food-form-problems">
          <p className="font-semibold">Before saving:</p>
          <ul className="mt-1 list-disc pl-5">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="flex justify-end">
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
