import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { Link, useLocation, useParams } from 'wouter';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button, buttonClasses } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { toastError } from '../../../lib/notify';
import { toast } from '../../../lib/toast';
import { useTRPC } from '../../../lib/trpc';
import { Badge, LoadError, Loading, Page } from '../../admin/ui';
import { emptyFoodForm, foodFormFrom } from './food-form';
import { FoodForm } from './FoodForm';
import { SOURCE_LABELS } from './FoodsPage';
import { UsedInRecipes } from '../recipes/UsedInRecipes';

/** Back to the Foods list, above a food's or a recipe's page. */
export const BackToFoods = () => (
  <Link href="/foods" className="mb-3 inline-flex items-center gap-1 text-sm font-semibold text-brand-800 hover:underline">
    <ArrowLeft className="h-4 w-4" aria-hidden="true" />
    Foods
  </Link>
);

/** Add a food to the clinic's library. */
export function NewFoodPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const [, navigate] = useLocation();
  const create = useMutation(trpc.foods.create.mutationOptions());
  return (
    <Page
      title="Add a food"
      lead="It can be found by any of its names at once, in plans and meals."
      width="max-w-4xl"
      before={<BackToFoods />}
    >
      <Card className="p-4 sm:p-6">
        <FoodForm
          defaults={emptyFoodForm()}
          submitLabel="Add the food"
          onSubmit={async (value) => {
            try {
              // No portions given: the group's usual ones.
              const food = await overlay.run(
                create.mutateAsync({ ...value, portions: value.portions?.length ? value.portions : undefined }),
              );
              await queryClient.invalidateQueries(trpc.foods.pathFilter());
              toast.success(`${food.name} added`);
              navigate(`/foods/${food.id}`);
            } catch (error) {
              toastError(error);
            }
          }}
        />
      </Card>
    </Page>
  );
}

/** A food's names, values and portions, to change; archiving takes it out of search (plans keep it). */
export function FoodEditorPage() {
  const trpc = useTRPC();
  const id = Number(useParams<{ id: string }>().id);
  const food = useQuery({ ...trpc.foods.get.queryOptions({ id }), enabled: Number.isInteger(id) && id > 0 });
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const update = useMutation(trpc.foods.update.mutationOptions());
  const archive = useMutation(trpc.foods.archive.mutationOptions());

  if (food.isPending) return <Loading label="Loading the food" />;
  if (food.isError) return <LoadError error={food.error} onRetry={() => void food.refetch()} />;
  const f = food.data;
  const refresh = () => queryClient.invalidateQueries(trpc.foods.pathFilter());
  return (
    <Page
      title={f.name}
      lead={
        <span className="flex flex-wrap items-center gap-2">
          {f.nameHi && <span lang="hi">{f.nameHi}</span>}
          <Badge tone={f.source === 'clinic' ? 'teal' : 'slate'}>
            {SOURCE_LABELS[f.source]}
            {f.sourceRef ? ` ${f.sourceRef}` : ''}
          </Badge>
          {f.kind === 'recipe' && <Badge tone="blue">Recipe</Badge>}
          {f.archived && <Badge tone="amber">Archived</Badge>}
        </span>
      }
      width="max-w-4xl"
      before={<BackToFoods />}
      actions={
        <Button
          variant={f.archived ? 'secondary' : 'dangerSecondary'}
          onClick={async () => {
            try {
              await overlay.run(archive.mutateAsync({ id, archived: !f.archived }));
              await refresh();
              toast.success(f.archived ? `${f.name} is back in search` : `${f.name} archived: no longer offered in search`);
            } catch (error) {
              toastError(error);
            }
          }}
        >
          {f.archived ? 'Restore' : 'Archive'}
        </Button>
      }
    >
      {f.kind === 'recipe' && f.ingredients.length > 0 && (
        <Card className="mb-4 p-4 sm:p-6">
          <h2 className="text-lg font-semibold text-slate-900">Ingredients</h2>
          <ul className="mt-2 text-sm text-slate-800" data-testid="recipe-ingredients">
            {f.ingredients.map((i) => (
              <li key={`${i.foodId}-${i.grams}`}>
                {i.name} · {i.grams} g
              </li>
            ))}
          </ul>
          <p className="mt-2 text-sm text-slate-600">Cooked weight {f.cookedGrams} g.</p>
          <Link href={`/foods/recipes/${f.id}`} className={`mt-3 ${buttonClasses('secondary', 'sm')}`}>
            Edit the recipe
          </Link>
        </Card>
      )}
      {f.kind === 'food' && <UsedInRecipes foodId={f.id} />}
      <Card className="p-4 sm:p-6">
        <FoodForm
          key={f.updatedAt.toString()}
          defaults={foodFormFrom(f)}
          submitLabel="Save changes"
          valuesLocked={f.kind === 'recipe'}
          onSubmit={async (value) => {
            try {
              const { per100g, ...rest } = value;
              await overlay.run(
                update.mutateAsync({ id, ...rest, portions: value.portions ?? [], ...(f.kind === 'recipe' ? {} : { per100g }) }),
              );
              await refresh();
              toast.success('Changes saved');
            } catch (error) {
              toastError(error);
            }
          }}
        />
      </Card>
    </Page>
  );
}
