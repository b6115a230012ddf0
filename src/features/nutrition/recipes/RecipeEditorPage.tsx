import { FoodGroupOptions } from '../FoodGroupOptions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { type FormEvent, useMemo, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import type { z } from 'zod';
import type { createRecipeInput, RecipeView } from '../../../../server/nutrition/recipes-schema';
import type { FoodSummary } from '../../../../server/nutrition/schema';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/Field';
import { toastError } from '../../../lib/notify';
import { toast } from '../../../lib/toast';
import { useTRPC } from '../../../lib/trpc';
import { LoadError, Loading, Page } from '../../admin/ui';
import { BackToFoods } from '../console/FoodEditorPage';
import { FoodPicker } from '../FoodPicker';
import { NutrientTotalsRow } from '../NutrientTotals';
import { useFoodsByIds } from '../use-foods';
import { type RecipeForm, emptyRecipeForm, liveValues, readRecipe } from './recipe-form';

const LIVE_NUTRIENTS = ['energyKcal', 'proteinG', 'carbohydrateG', 'fatG', 'fibreG', 'ironMg', 'calciumMg'] as const;

/** /admin/foods/recipes/new: a new recipe from foods by raw weight, its cooked weight and a serving. */
export function NewRecipePage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const [, navigate] = useLocation();
  const create = useMutation(trpc.recipes.create.mutationOptions());
  return (
    <Page
      title="Add a recipe"
      lead="A dish made of foods: its values follow from what goes in and what the pot weighs once cooked."
      width="max-w-4xl"
      before={<BackToFoods />}
    >
      <RecipeEditor
        initial={emptyRecipeForm()}
        submitLabel="Add the recipe"
        onSubmit={async (value) => {
          const recipe = await overlay.run(create.mutateAsync(value));
          await queryClient.invalidateQueries(trpc.foods.pathFilter());
          toast.success(`${recipe.name} added`);
          navigate(`/foods/${recipe.id}`);
        }}
      />
    </Page>
  );
}

/** /admin/foods/recipes/:id: change a recipe; its values are recomputed when saved. */
export function EditRecipePage() {
  const trpc = useTRPC();
  const id = Number(useParams<{ id: string }>().id);
  const recipe = useQuery({ ...trpc.recipes.get.queryOptions({ id }), enabled: Number.isInteger(id) && id > 0 });
  const foods = useFoodsByIds(recipe.data?.ingredients.map((i) => i.foodId) ?? []);
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const [, navigate] = useLocation();
  const update = useMutation(trpc.recipes.update.mutationOptions());
  if (recipe.isPending || foods.isLoading) return <Loading label="Loading the recipe" />;
  if (recipe.isError) return <LoadError error={recipe.error} onRetry={() => void recipe.refetch()} />;
  return (
    <Page title={`Edit ${recipe.data.name}`} width="max-w-4xl" before={<BackToFoods />}>
      <RecipeEditor
        key={recipe.data.updatedAt.toString()}
        initial={formFrom(recipe.data, foods.byId)}
        submitLabel="Save the recipe"
        onSubmit={async (value) => {
          const saved = await overlay.run(update.mutateAsync({ id, ...value }));
          await queryClient.invalidateQueries(trpc.foods.pathFilter());
          await queryClient.invalidateQueries(trpc.recipes.pathFilter());
          toast.success('Recipe saved: its values are recomputed');
          navigate(`/foods/${saved.id}`);
        }}
      />
    </Page>
  );
}

function formFrom(recipe: RecipeView, byId: Map<number, FoodSummary>): RecipeForm {
  return {
    name: recipe.name,
    nameHi: recipe.nameHi ?? '',
    aliases: recipe.aliases.join('\n'),
    group: recipe.group,
    ingredients: recipe.ingredients.map((i) => ({
      food: {
        id: i.foodId,
        name: i.name,
        nameHi: i.nameHi,
        kind: byId.get(i.foodId)?.kind ?? 'food',
        per100g: byId.get(i.foodId)?.per100g ?? {},
      },
      grams: String(i.grams),
    })),
    cookedGrams: String(recipe.cookedGrams ?? ''),
    servingGrams: String(recipe.servingGrams ?? ''),
  };
}

function RecipeEditor({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial: RecipeForm;
  submitLabel: string;
  onSubmit: (value: z.output<typeof createRecipeInput>) => Promise<void>;
}) {
  const [form, setForm] = useState(initial);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<string[]>([]);
  const [pickError, setPickError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const live = useMemo(() => liveValues(form), [form]);
  const set = (patch: Partial<RecipeForm>) => setForm((f) => ({ ...f, ...patch }));
  const setGrams = (i: number, grams: string) =>
    setForm((f) => ({ ...f, ingredients: f.ingredients.map((row, n) => (n === i ? { ...row, grams } : row)) }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const read = readRecipe(form);
    if (!read.ok) {
      setFields(read.fields);
      setProblems(read.form);
      return;
    }
    setFields({});
    setProblems([]);
    setBusy(true);
    try {
      await onSubmit(read.value);
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form method="post" onSubmit={submit} noValidate className="flex flex-col gap-5" data-testid="recipe-editor">
      <Card className="p-4 sm:p-6">
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 text-lg font-semibold text-slate-900">Names</legend>
          <TextField
            label="Name (English)"
            autoComplete="off"
            value={form.name}
            error={fields.name}
            onChange={(e) => set({ name: e.target.value })}
          />
          <TextField
            label="Hindi name"
            lang="hi"
            autoComplete="off"
            hint="In Devanagari, e.g. दाल तड़का"
            value={form.nameHi}
            error={fields.nameHi}
            onChange={(e) => set({ nameHi: e.target.value })}
          />
          <TextAreaField
            label="Other names (aliases)"
            rows={2}
            hint="One per line: names people search by, e.g. dal fry"
            value={form.aliases}
            error={fields.aliases}
            onChange={(e) => set({ aliases: e.target.value })}
          />
          <SelectField label="Food group" value={form.group} error={fields.group} onChange={(e) => set({ group: e.target.value })}>
            <FoodGroupOptions />
          </SelectField>
        </fieldset>
      </Card>

      <Card className="p-4 sm:p-6">
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-1 text-lg font-semibold text-slate-900">Ingredients (raw weight)</legend>
          <FoodPicker
            label="Add an ingredient"
            hint="Foods as they go into the pot, by raw weight"
            error={pickError ?? fields.ingredients}
            onPick={(food) => {
              if (food.kind === 'recipe') return setPickError(`“${food.name}” is a recipe: add its foods instead`);
              if (form.ingredients.some((row) => row.food.id === food.id))
                return setPickError(`“${food.name}” is in the recipe already: change its grams`);
              setPickError(undefined);
              set({ ingredients: [...form.ingredients, { food, grams: '' }] });
            }}
          />
          {form.ingredients.length > 0 && (
            <ul className="flex flex-col gap-2" data-testid="recipe-ingredient-rows">
              {form.ingredients.map((row, i) => (
                <li key={row.food.id} className="flex flex-wrap items-end gap-2 border-b border-slate-100 pb-2">
                  <span className="min-w-0 flex-1 basis-full pb-2 text-slate-900 sm:basis-40">
                    {row.food.name}
                    {row.food.nameHi && (
                      <span lang="hi" className="ml-2 text-slate-600">
                        {row.food.nameHi}
                      </span>
                    )}
                  </span>
                  <div className="flex items-end gap-2">
                    <div className="w-28">
                      <TextField
                        label={`Grams of ${row.food.name}`}
                        hideLabel
                        placeholder="g"
                        inputMode="decimal"
                        autoComplete="off"
                        value={row.grams}
                        error={fields[`ingredients.${i}.grams`]}
                        onChange={(e) => setGrams(i, e.target.value)}
                      />
                    </div>
                    <span className="pb-2 text-sm text-slate-600" aria-hidden="true">
                      g
                    </span>
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      aria-label={`Remove ${row.food.name}`}
                      onClick={() => set({ ingredients: form.ingredients.filter((_, n) => n !== i) })}
                    >
                      <Trash2 className="h-4 w-4" aria-hidden="true" />
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
          <p className="text-sm text-slate-600">Raw weight together: {Math.round(live.rawGrams).toLocaleString('en-IN')} g</p>
        </fieldset>
      </Card>

      <Card className="p-4 sm:p-6">
        <fieldset className="flex flex-col gap-4">
          <legend className="mb-1 text-lg font-semibold text-slate-900">Cooked weight and serving</legend>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <TextField
              label="Cooked weight (g)"
              hint="What the pot holds once cooked (weigh the pot, less the empty pot)"
              inputMode="decimal"
              autoComplete="off"
              value={form.cookedGrams}
              error={fields.cookedGrams}
              onChange={(e) => set({ cookedGrams: e.target.value })}
            />
            <TextField
              label="Serving (g)"
              hint="One serving of the cooked dish, e.g. a katori (150 g)"
              inputMode="decimal"
              autoComplete="off"
              value={form.servingGrams}
              error={fields.servingGrams}
              onChange={(e) => set({ servingGrams: e.target.value })}
            />
          </div>
          <div className="flex flex-col gap-2 rounded-lg bg-slate-50 p-3" aria-live="polite" data-testid="recipe-live-values">
            {live.per100g ? (
              <>
                <h3 className="text-sm font-semibold text-slate-900">Per 100 g cooked</h3>
                <NutrientTotalsRow total={live.per100g} nutrients={LIVE_NUTRIENTS} label="Per 100 g cooked" />
                {live.perServing && (
                  <>
                    <h3 className="text-sm font-semibold text-slate-900">Per serving</h3>
                    <NutrientTotalsRow total={live.perServing} nutrients={LIVE_NUTRIENTS} label="Per serving" />
                  </>
                )}
              </>
            ) : (
              <p className="text-sm text-slate-600">Add ingredients with their grams and the cooked weight to see the values.</p>
            )}
          </div>
        </fieldset>
      </Card>

      {problems.length > 0 && (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {problems.join(' ')}
        </div>
      )}
      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
