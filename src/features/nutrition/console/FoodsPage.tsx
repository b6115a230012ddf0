import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Apple, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { FOOD_GROUPS } from '../../../../server/nutrition/groups';
import { formatNutrient, NUTRIENTS, type NutrientKey } from '../../../../server/nutrition/nutrients';
import type { FoodSummary } from '../../../../server/nutrition/schema';
import { buttonClasses } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { TextField } from '../../../components/ui/Field';
import { useTRPC } from '../../../lib/trpc';
import { useDebounced } from '../../admin/use-debounced';
import { Badge, EmptyState, LoadError, Loading, Page, Table, td, th } from '../../admin/ui';

/** The nutrients the list shows per 100 g: enough to tell foods apart and spot a wrong value. */
const COLUMNS: NutrientKey[] = ['energyKcal', 'proteinG', 'carbohydrateG', 'fatG', 'fibreG', 'ironMg', 'calciumMg'];

export const SOURCE_LABELS: Record<FoodSummary['source'], string> = { ifct2017: 'IFCT 2017', csv: 'Imported list', clinic: 'Clinic' };

/**
 * The console's food library: search by any name (English, Hindi, aliases, typos forgiven), the
 * key values per 100 g and where each food came from; open one to edit it, or add a food. Without
 * a query, the latest edited foods.
 */
export function FoodsPage() {
  const trpc = useTRPC();
  const [q, setQ] = useState('');
  const [archived, setArchived] = useState(false);
  const search = useDebounced(q.trim(), 200);
  const list = useQuery({
    ...trpc.foods.list.queryOptions({ q: search, includeArchived: archived, limit: 50 }),
    placeholderData: keepPreviousData,
  });

  return (
    <Page
      title="Foods"
      lead="The food library behind plans and meals: values per 100 g of edible portion, household portions, names in English and Hindi."
      actions={
        <>
          <Link href="/foods/recipes/new" className={buttonClasses('secondary')}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            Add a recipe
          </Link>
          <Link href="/foods/new" className={buttonClasses('primary')}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            Add a food
          </Link>
        </>
      }
    >
      <Card>
        <div className="flex flex-col gap-3 border-b border-slate-100 p-4 sm:flex-row sm:items-end">
          <div className="grow">
            <TextField
              label="Search foods"
              type="search"
              placeholder="Any name: paneer, toor dal, पालक…"
              autoComplete="off"
              value={q}
              onChange={(e) => setQ(e.target.value)}
            />
          </div>
          <label className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="h-4 w-4"
              checked={archived}
              disabled={search !== ''}
              onChange={(e) => setArchived(e.target.checked)}
            />
            Show archived foods
          </label>
        </div>
        {list.isPending ? (
          <Loading label="Loading foods" />
        ) : list.isError ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} />
        ) : list.data.length === 0 ? (
          <EmptyState Icon={Apple}>{search ? `No food matches “${search}”.` : 'No foods yet. Add one, or import IFCT 2017.'}</EmptyState>
        ) : (
          <Table label="Foods">
            <thead>
              <tr>
                <th scope="col" className={th}>
                  Food
                </th>
                {COLUMNS.map((key) => (
                  <th key={key} scope="col" className={`${th} text-right`}>
                    {heading(key)}
                  </th>
                ))}
                <th scope="col" className={th}>
                  Source
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100" data-testid="foods-list">
              {list.data.map((food) => (
                <tr key={food.id} className={list.isPlaceholderData ? 'opacity-60' : ''}>
                  <td className={td}>
                    <Link href={`/foods/${food.id}`} className="font-semibold text-brand-800 hover:underline">
                      {food.name}
                    </Link>
                    {food.nameHi && (
                      <span lang="hi" className="ml-2 text-slate-700">
                        {food.nameHi}
                      </span>
                    )}
                    <span className="block text-xs text-slate-600">
                      {food.kind === 'recipe' ? 'Recipe' : FOOD_GROUPS[food.group].label}
                      {food.archived && ' · archived'}
                    </span>
                  </td>
                  {COLUMNS.map((key) => (
                    <td key={key} className={`${td} tabular-nums sm:text-right`} data-label={heading(key)}>
                      {food.per100g[key] === undefined ? '–' : formatNutrient(key, food.per100g[key]!)}
                    </td>
                  ))}
                  <td className={td} data-label="Source">
                    <Badge tone={food.source === 'clinic' ? 'teal' : 'slate'}>{SOURCE_LABELS[food.source]}</Badge>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
      <p className="mt-3 text-sm text-slate-600">Values are per 100 g.</p>
    </Page>
  );
}

/** A column's heading: the nutrient's short name ('Energy' rather than its unit). */
const heading = (key: NutrientKey) => (key === 'energyKcal' ? 'Energy' : NUTRIENTS[key].short);
