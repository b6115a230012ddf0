import { zodResolver } from '@hookform/resolvers/zod';
import { Copy, Eye, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import {
  type Control,
  type FieldErrors,
  type UseFormRegister,
  type UseFormSetValue,
  useFieldArray,
  useForm,
  useWatch,
} from 'react-hook-form';
import { type ComposedDietPlan, type ComposedDietPlanInput, composedDietPlanSchema, MEASURES } from '../../../../server/diet-plan/schema';
import { MEASURE_KEYS, type Measure, parseQuantity } from '../../../../server/nutrition/measures';
import type { FoodSummary } from '../../../../server/nutrition/schema';
import { addDays } from '../../../../server/time';
import { Button } from '../../../components/ui/Button';
import { FieldErrorLines, SelectField, TextAreaField, TextField } from '../../../components/ui/Field';
import { PlanSumsProvider, usePlanSums } from './plan-sums';
import { DaySums, ItemFood, MealSums } from './PlanSumsView';

type Form = ComposedDietPlanInput;
type Errors = FieldErrors<Form>;

/** Number inputs: blank is "not given", anything else a number (zod says what is wrong). */
const num = { setValueAs: (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v)) };

/**
 * The quantity as typed: "1½", "1 1/2", "1.5", or with its measure ("1½ katori", "150 g": the measure
 * is then chosen too). Blank is "not given"; anything else that is no number is NaN, which the schema
 * answers with what to type.
 */
const amount = {
  setValueAs: (v: unknown) => {
    if (v === '' || v === null || v === undefined) return undefined;
    if (typeof v === 'number') return v;
    const text = String(v).trim();
    const parsed = parseQuantity(text) ?? parseQuantity(`${text} g`);
    return parsed ? parsed.quantity : Number.NaN;
  },
};

const newItem = () => ({
  food: '',
  foodId: undefined as number | undefined,
  portion: { quantity: 1, unit: 'katori' as Measure, grams: undefined as number | undefined },
});
const newMeal = (time = '08:00', name = 'Breakfast') => ({ time, name, items: [newItem()], notes: '' });

export function blankPlan(today: string): Form {
  return {
    title: 'Diet plan',
    from: today,
    to: addDays(today, 6),
    days: [
      {
        label: 'Monday',
        meals: [newMeal('07:30', 'Early morning'), newMeal('09:00', 'Breakfast'), newMeal('13:30', 'Lunch'), newMeal('20:00', 'Dinner')],
      },
    ],
    guidelines: [],
    showTotals: false,
  };
}

/**
 * Days × meals × foods, each food with a household portion (katori, roti,
 * glass…) and, if the dietitian has them, its grams or millilitres. The
 * diet-plan domain's schema checks it here and again on the server, which
 * renders the PDF.
 */
export function ComposeForm({
  defaults,
  clientId,
  saveLabel,
  onSave,
  onPreview,
}: {
  defaults: Form;
  /** The client the plan is for: the sums are read against their targets. */
  clientId?: number;
  saveLabel: string;
  onSave: (plan: ComposedDietPlan) => Promise<void>;
  onPreview: (plan: ComposedDietPlan) => Promise<void>;
}) {
  const form = useForm<Form, unknown, ComposedDietPlan>({ resolver: zodResolver(composedDietPlanSchema), defaultValues: defaults });
  const { control, register, formState, setValue } = form;
  const errors = formState.errors;
  const watchedDays = useWatch({ control, name: 'days' });
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
    <PlanSumsProvider days={watchedDays}>
      <form
        method="post"
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
            <div className="mb-3 grid grid-cols-[minmax(0,1fr)_auto_auto] items-end gap-2">
              <div className="min-w-0">
                <TextField
                  id={`day-${day.id}-label`}
                  label={`Day ${d + 1}`}
                  placeholder="Monday, Day 1 or Mon, Wed, Fri"
                  error={errors.days?.[d]?.label?.message}
                  errorApart
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
              <FieldErrorLines
                className="col-span-full"
                errors={[{ id: `day-${day.id}-label`, label: `Day ${d + 1}`, message: errors.days?.[d]?.label?.message }]}
              />
            </div>
            <MealsEditor control={control} register={register} setValue={setValue} errors={errors} d={d} clientId={clientId} />
            <DaySums d={d} clientId={clientId} />
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

        <label className="flex min-h-11 items-center gap-3 self-start rounded-lg border border-slate-200 px-3 py-2 text-sm text-slate-800">
          <input type="checkbox" className="h-5 w-5 accent-brand-700" {...register('showTotals')} />
          Show daily totals in the PDF
        </label>

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
    </PlanSumsProvider>
  );
}

type Part = {
  control: Control<Form>;
  register: UseFormRegister<Form>;
  setValue: UseFormSetValue<Form>;
  errors: Errors;
  d: number;
  clientId: number | undefined;
};

function MealsEditor({ control, register, setValue, errors, d, clientId }: Part) {
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
            {/* Phones: Time with Remove beside it, Meal underneath. Wider: Time | Meal | Remove. Errors each on a line below. */}
            <div className="grid grid-cols-[minmax(0,1fr)_auto] items-end gap-2 sm:grid-cols-[10rem_minmax(0,1fr)_auto]">
              <div className="col-start-1 row-start-1 max-w-[12rem] sm:max-w-none" data-testid="compose-time">
                <TextField
                  id={`meal-${meal.id}-time`}
                  label="Time"
                  type="time"
                  error={e?.time?.message}
                  errorApart
                  {...register(`days.${d}.meals.${m}.time`)}
                />
              </div>
              <div
                className="col-span-2 col-start-1 row-start-2 sm:col-span-1 sm:col-start-2 sm:row-start-1"
                data-testid="compose-meal-name"
              >
                <TextField
                  id={`meal-${meal.id}-name`}
                  label="Meal"
                  placeholder="Breakfast"
                  error={e?.name?.message}
                  errorApart
                  {...register(`days.${d}.meals.${m}.name`)}
                />
              </div>
              <div className="col-start-2 row-start-1 justify-self-end sm:col-start-3">
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
              <FieldErrorLines
                className="col-span-full"
                errors={[
                  { id: `meal-${meal.id}-time`, label: 'Time', message: e?.time?.message },
                  { id: `meal-${meal.id}-name`, label: 'Meal', message: e?.name?.message },
                ]}
              />
            </div>
            <ItemsEditor control={control} register={register} setValue={setValue} errors={errors} d={d} m={m} clientId={clientId} />
            <MealSums d={d} m={m} clientId={clientId} />
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

function ItemsEditor({ control, register, setValue, errors, d, m }: Part & { m: number }) {
  const items = useFieldArray({ control, name: `days.${d}.meals.${m}.items` });
  const mealErrors = errors.days?.[d]?.meals?.[m]?.items;
  const sums = usePlanSums();
  const now = sums.plan[d]?.meals[m]?.items ?? [];
  /** Links item i to a food: its name when none was written, and a measure the food has. */
  const link = (i: number, food: FoodSummary) => {
    const base = `days.${d}.meals.${m}.items.${i}` as const;
    const current = now[i];
    sums.remember(food);
    setValue(`${base}.foodId`, food.id, { shouldDirty: true });
    if (!current?.food.trim()) setValue(`${base}.food`, food.name, { shouldDirty: true });
    const unit = current?.portion.unit;
    if (unit !== 'g' && unit !== 'ml' && !food.portions.some((p) => p.unit === unit)) {
      setValue(`${base}.portion.unit`, food.portions[0]?.unit ?? 'g', { shouldDirty: true });
    }
  };
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
        const id = `item-${item.id}`;
        const foodId = now[i]?.foodId;
        const linked = foodId === undefined ? undefined : sums.foods.get(foodId);
        const measureLabel = (u: Measure) => {
          const grams = linked?.portions.find((p) => p.unit === u)?.grams;
          return grams === undefined ? MEASURES[u].one : `${MEASURES[u].one} (${grams} g)`;
        };
        return (
          <div
            key={item.id}
            className="grid grid-cols-2 items-end gap-2 sm:grid-cols-[minmax(10rem,2fr)_5rem_9.5rem_5.5rem_5.5rem_auto]"
            data-testid="compose-item"
          >
            <div className="col-span-2 sm:col-span-1">
              <TextField
                id={`${id}-food`}
                label="Food"
                placeholder="e.g. Vegetable poha"
                error={e?.food?.message}
                errorApart
                {...register(`${base}.food`)}
              />
            </div>
            <TextField
              id={`${id}-qty`}
              label="Qty"
              inputMode="decimal"
              autoComplete="off"
              placeholder="1½"
              error={e?.portion?.quantity?.message}
              errorApart
              {...register(`${base}.portion.quantity`, {
                ...amount,
                onChange: (event: { target: { value: string } }) => {
                  const typed = parseQuantity(event.target.value);
                  if (typed) setValue(`${base}.portion.unit`, typed.unit, { shouldDirty: true });
                },
              })}
            />
            <SelectField id={`${id}-unit`} label="Unit" error={e?.portion?.unit?.message} errorApart {...register(`${base}.portion.unit`)}>
              {MEASURE_KEYS.map((u) => (
                <option key={u} value={u}>
                  {measureLabel(u)}
                </option>
              ))}
            </SelectField>
            <TextField
              id={`${id}-grams`}
              label="Grams"
              type="number"
              min="1"
              placeholder="opt."
              error={e?.portion?.grams?.message}
              errorApart
              {...register(`${base}.portion.grams`, num)}
            />
            <TextField
              id={`${id}-ml`}
              label="ml"
              type="number"
              min="1"
              placeholder="opt."
              error={e?.portion?.ml?.message}
              errorApart
              {...register(`${base}.portion.ml`, num)}
            />
            <Button
              variant="ghost"
              size="sm"
              className="col-span-2 justify-self-end sm:col-span-1"
              onClick={() => items.remove(i)}
              disabled={items.fields.length === 1}
              aria-label={`Remove food ${i + 1}`}
            >
              <Trash2 className="h-4 w-4" aria-hidden="true" />
            </Button>
            <ItemFood
              d={d}
              m={m}
              i={i}
              foodId={foodId}
              onLink={(food) => link(i, food)}
              onUnlink={() => setValue(`${base}.foodId`, undefined, { shouldDirty: true })}
            />
            <FieldErrorLines
              className="col-span-full"
              errors={[
                { id: `${id}-food`, label: 'Food', message: e?.food?.message ?? e?.foodId?.message },
                { id: `${id}-qty`, label: 'Qty', message: e?.portion?.quantity?.message },
                { id: `${id}-unit`, label: 'Unit', message: e?.portion?.unit?.message },
                { id: `${id}-grams`, label: 'Grams', message: e?.portion?.grams?.message },
                { id: `${id}-ml`, label: 'ml', message: e?.portion?.ml?.message },
              ]}
            />
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
