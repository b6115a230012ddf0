import { zodResolver } from '@hookform/resolvers/zod';
import { Copy, Eye, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { type Control, type FieldErrors, type UseFormRegister, useFieldArray, useForm } from 'react-hook-form';
import {
  type ComposedDietPlan,
  type ComposedDietPlanInput,
  composedDietPlanSchema,
  HOUSEHOLD_UNITS,
} from '../../../../server/diet-plan/schema';
import { Button } from '../../../components/ui/Button';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/Field';

type Form = ComposedDietPlanInput;
type Errors = FieldErrors<Form>;

/** Number inputs: blank is "not given", anything else a number (zod says what is wrong). */
const num = { setValueAs: (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v)) };

const UNITS = Object.keys(HOUSEHOLD_UNITS) as (keyof typeof HOUSEHOLD_UNITS)[];

const newItem = () => ({ food: '', portion: { quantity: 1, unit: 'katori' as const, grams: undefined as number | undefined } });
const newMeal = (time = '08:00', name = 'Breakfast') => ({ time, name, items: [newItem()], notes: '' });
const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

export function blankPlan(today: string): Form {
  return {
    title: 'Diet plan',
    from: today,
    to: plusDays(today, 6),
    days: [
      {
        label: 'Monday',
        meals: [newMeal('07:30', 'Early morning'), newMeal('09:00', 'Breakfast'), newMeal('13:30', 'Lunch'), newMeal('20:00', 'Dinner')],
      },
    ],
    guidelines: [],
  };
}

/**
 * Days × meals × foods, each food with a household portion (katori, roti,
 * glass…) and its grams or millilitres. The diet-plan domain's schema checks
 * it here and again on the server, which renders the PDF.
 */
export function ComposeForm({
  defaults,
  saveLabel,
  onSave,
  onPreview,
}: {
  defaults: Form;
  saveLabel: string;
  onSave: (plan: ComposedDietPlan) => Promise<void>;
  onPreview: (plan: ComposedDietPlan) => Promise<void>;
}) {
  const form = useForm<Form, unknown, ComposedDietPlan>({ resolver: zodResolver(composedDietPlanSchema), defaultValues: defaults });
  const { control, register, formState } = form;
  const errors = formState.errors;
  const days = useFieldArray({ control, name: 'days' });
  const [guidelines, setGuidelines] = useState((defaults.guidelines ?? []).join('\n'));
  const withGuidelines = (plan: ComposedDietPlan): ComposedDietPlan => ({
    ...plan,
    guidelines: guidelines
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  });

  return (
    <form
      onSubmit={form.handleSubmit((plan) => onSave(withGuidelines(plan)))}
      noValidate
      className="flex flex-col gap-5"
      data-testid="compose-form"
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <div className="sm:col-span-3">
          <TextField label="Title" error={errors.title?.message} {...register('title')} />
        </div>
        <TextField label="From" type="date" error={errors.from?.message} {...register('from')} />
        <TextField label="To" type="date" error={errors.to?.message} {...register('to')} />
      </div>

      {(errors.days?.root?.message ?? errors.days?.message) && (
        <p role="alert" className="text-sm text-red-700">
          {errors.days?.root?.message ?? errors.days?.message}
        </p>
      )}
      {days.fields.map((day, d) => (
        <fieldset key={day.id} className="rounded-2xl border border-slate-200 bg-slate-50/60 p-3 sm:p-4" data-testid="compose-day">
          <legend className="sr-only">Day {d + 1}</legend>
          <div className="mb-3 flex flex-wrap items-end gap-2">
            <div className="min-w-0 flex-1">
              <TextField
                label={`Day ${d + 1}`}
                placeholder="Monday, Day 1 or Mon, Wed, Fri"
                error={errors.days?.[d]?.label?.message}
                {...register(`days.${d}.label`)}
              />
            </div>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => days.insert(d + 1, structuredClone(form.getValues(`days.${d}`)))}
              aria-label={`Copy day ${d + 1}`}
            >
              <Copy className="h-4 w-4" aria-hidden="true" />
              Copy
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => days.remove(d)}
              disabled={days.fields.length === 1}
              aria-label={`Remove day ${d + 1}`}
            >
              <Trash2 className="h-4 w-4" aria-hidden="true" />
            </Button>
          </div>
          <MealsEditor control={control} register={register} errors={errors} d={d} />
        </fieldset>
      ))}
      <Button
        variant="secondary"
        className="self-start"
        onClick={() => days.append({ label: `Day ${days.fields.length + 1}`, meals: [newMeal()] })}
        disabled={days.fields.length >= 31}
      >
        <Plus className="h-4 w-4" aria-hidden="true" />
        Add a day
      </Button>

      <TextAreaField
        label="Guidelines"
        rows={4}
        hint="One per line: water, activity, swaps… printed after the meals."
        value={guidelines}
        onChange={(e) => setGuidelines(e.target.value)}
        error={errors.guidelines?.message ?? (Array.isArray(errors.guidelines) ? errors.guidelines.find(Boolean)?.message : undefined)}
      />

      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={() => void form.handleSubmit((plan) => onPreview(withGuidelines(plan)))()}>
          <Eye className="h-4 w-4" aria-hidden="true" />
          Preview PDF
        </Button>
        <Button type="submit" disabled={formState.isSubmitting}>
          {saveLabel}
        </Button>
      </div>
    </form>
  );
}

type Part = { control: Control<Form>; register: UseFormRegister<Form>; errors: Errors; d: number };

function MealsEditor({ control, register, errors, d }: Part) {
  const meals = useFieldArray({ control, name: `days.${d}.meals` });
  const dayErrors = errors.days?.[d]?.meals;
  return (
    <div className="flex flex-col gap-3">
      {(dayErrors?.root?.message ?? dayErrors?.message) && (
        <p role="alert" className="text-sm text-red-700">
          {dayErrors?.root?.message ?? dayErrors?.message}
        </p>
      )}
      {meals.fields.map((meal, m) => {
        const e = dayErrors?.[m];
        return (
          <div key={meal.id} className="rounded-xl border border-slate-200 bg-white p-3" data-testid="compose-meal">
            <div className="grid grid-cols-[7rem_1fr_auto] items-end gap-2">
              <TextField label="Time" type="time" error={e?.time?.message} {...register(`days.${d}.meals.${m}.time`)} />
              <TextField label="Meal" placeholder="Breakfast" error={e?.name?.message} {...register(`days.${d}.meals.${m}.name`)} />
              <Button
                variant="ghost"
                size="sm"
                onClick={() => meals.remove(m)}
                disabled={meals.fields.length === 1}
                aria-label={`Remove meal ${m + 1} of day ${d + 1}`}
              >
                <Trash2 className="h-4 w-4" aria-hidden="true" />
              </Button>
            </div>
            <ItemsEditor control={control} register={register} errors={errors} d={d} m={m} />
            <div className="mt-2">
              <TextField
                label="Notes for this meal"
                placeholder="Optional"
                error={e?.notes?.message}
                {...register(`days.${d}.meals.${m}.notes`)}
              />
            </div>
          </div>
        );
      })}
      <Button
        variant="ghost"
        size="sm"
        className="self-start"
        onClick={() => meals.append(newMeal('', ''))}
        disabled={meals.fields.length >= 12}
      >
        <Plus className="h-4 w-4" aria-hidden="true" />
        Add a meal
      </Button>
    </div>
  );
}

function ItemsEditor({ control, register, errors, d, m }: Part & { m: number }) {
  const items = useFieldArray({ control, name: `days.${d}.meals.${m}.items` });
  const mealErrors = errors.days?.[d]?.meals?.[m]?.items;
  return (
    <div className="mt-3 flex flex-col gap-2">
      {(mealErrors?.root?.message ?? mealErrors?.message) && (
        <p role="alert" className="text-sm text-red-700">
          {mealErrors?.root?.message ?? mealErrors?.message}
        </p>
      )}
      {items.fields.map((item, i) => {
        const e = mealErrors?.[i];
        const base = `days.${d}.meals.${m}.items.${i}` as const;
        return (
          <div
            key={item.id}
            className="grid grid-cols-2 items-end gap-2 sm:grid-cols-[minmax(10rem,2fr)_5rem_8rem_5.5rem_5.5rem_auto]"
            data-testid="compose-item"
          >
            <div className="col-span-2 sm:col-span-1">
              <TextField label="Food" placeholder="e.g. Vegetable poha" error={e?.food?.message} {...register(`${base}.food`)} />
            </div>
            <TextField
              label="Qty"
              type="number"
              step="0.25"
              min="0.25"
              error={e?.portion?.quantity?.message}
              {...register(`${base}.portion.quantity`, num)}
            />
            <SelectField label="Unit" error={e?.portion?.unit?.message} {...register(`${base}.portion.unit`)}>
              {UNITS.map((u) => (
                <option key={u} value={u}>
                  {HOUSEHOLD_UNITS[u].one}
                </option>
              ))}
            </SelectField>
            <TextField label="Grams" type="number" min="1" error={e?.portion?.grams?.message} {...register(`${base}.portion.grams`, num)} />
            <TextField label="ml" type="number" min="1" error={e?.portion?.ml?.message} {...register(`${base}.portion.ml`, num)} />
            <Button
              variant="ghost"
              size="sm"
              onClick={() => items.remove(i)}
              disabled={items.fields.length === 1}
              aria-label={`Remove food ${i + 1}`}
            >
              <Trash2 className="h-4 w-4" aria-hidden="true" />
            </Button>
          </div>
        );
      })}
      <Button variant="ghost" size="sm" className="self-start" onClick={() => items.append(newItem())} disabled={items.fields.length >= 12}>
        <Plus className="h-4 w-4" aria-hidden="true" />
        Add a food
      </Button>
    </div>
  );
}
