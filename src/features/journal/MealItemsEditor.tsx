import { Plus, X } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { MEAL_ITEMS_MAX } from '../../../server/journal/schema';
import { MEASURES } from '../../../server/nutrition/measures';
import type { Nutrients } from '../../../server/nutrition/nutrients';
import type { FoodSummary } from '../../../server/nutrition/schema';
import { controlClasses } from '../../components/ui/Field';
import { useTRPC } from '../../lib/trpc';
import { FoodPicker } from '../nutrition/FoodPicker';
import { NutrientTotalsRow } from '../nutrition/NutrientTotals';
import { useFoodSearch, useFoodsByIds } from '../nutrition/use-foods';
import { type DraftItem, draftOf, draftTotal, portionsOf, readItem } from './meal-items';

/** The foods being written for a meal, and the library's record of each (for grams and nutrients). */
export function useMealDraft() {
  const [items, setItems] = useState<DraftItem[]>([]);
  const [picked, setPicked] = useState<Map<number, FoodSummary>>(new Map());
  const ids = useMemo(() => items.map((i) => i.foodId), [items]);
  const loaded = useFoodsByIds(ids);
  const foods = useMemo(() => new Map([...loaded.byId, ...picked]), [loaded.byId, picked]);
  const add = useCallback((food: FoodSummary) => {
    setPicked((m) => new Map(m).set(food.id, food));
    setItems((list) => [...list, draftOf(food)]);
  }, []);
  return { items, setItems, foods, add, loading: loaded.isLoading };
}
export type MealDraft = ReturnType<typeof useMealDraft>;

/** After foods are saved: the person's recent foods (search with nothing typed) are asked again. */
export function useRecentFoodsRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: trpc.foods.search.queryKey() });
}

/**
 * The foods of a meal: search as you type (recent foods first, recipes among them), each with its
 * quantity as people say it ("1½ katori", "2 roti", "150 g") and its grams, and, when the reader
 * sees numbers, what the meal adds up to, live.
 */
export function MealItemsEditor({
  draft,
  showNumbers,
  targets,
  actions,
}: {
  draft: MealDraft;
  showNumbers: boolean;
  targets?: Nutrients | null;
  /** Beside the search: "Same as yesterday's breakfast". */
  actions?: React.ReactNode;
}) {
  const { items, setItems, foods } = draft;
  const full = items.length >= MEAL_ITEMS_MAX;
  // The foods and recipes this person used lately, one tap each.
  const recent = useFoodSearch('', { limit: 6 }).foods.filter((f) => !items.some((i) => i.foodId === f.id));
  const total = draftTotal(items, foods);
  return (
    <fieldset className="flex flex-col gap-2" data-testid="meal-items">
      <legend className="mb-1.5 text-sm font-medium text-slate-800">Foods</legend>
      {items.length > 0 && (
        <ul className="flex flex-col gap-2">
          {items.map((item) => {
            const food = foods.get(item.foodId);
            const read = readItem(item, food);
            const inputId = `qty-${item.key}`;
            return (
              <li key={item.key} className="rounded-xl border border-slate-200 p-2" data-testid="meal-item">
                <div className="flex items-start gap-2">
                  <div className="min-w-0 flex-1">
                    <label htmlFor={inputId} className="block text-sm font-medium text-slate-900">
                      {item.name}
                      {item.nameHi && (
                        <span lang="hi" className="ml-2 font-normal text-slate-600">
                          {item.nameHi}
                        </span>
                      )}
                    </label>
                    <div className="mt-1 flex flex-wrap items-center gap-2">
                      <input
                        id={inputId}
                        className={`${controlClasses('error' in read)} max-w-44`}
                        value={item.text}
                        aria-invalid={'error' in read ? true : undefined}
                        aria-describedby={`${inputId}-note`}
                        autoComplete="off"
                        onChange={(e) => setItems((list) => list.map((x) => (x.key === item.key ? { ...x, text: e.target.value } : x)))}
                      />
                      <span
                        id={`${inputId}-note`}
                        className={`text-sm ${'error' in read ? 'text-red-700' : 'text-slate-600'}`}
                        data-testid="meal-item-grams"
                      >
                        {'error' in read ? read.error : Number.isNaN(read.grams) ? '' : `${Math.round(read.grams)} g`}
                      </span>
                    </div>
                    {food && (
                      <p className="mt-1 text-xs text-slate-600">
                        {portionsOf(food)
                          .map((p) => `1 ${MEASURES[p.unit].one} = ${Math.round(p.grams)} g`)
                          .join(' · ')}
                      </p>
                    )}
                  </div>
                  <button
                    type="button"
                    className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
                    aria-label={`Remove ${item.name}`}
                    onClick={() => setItems((list) => list.filter((x) => x.key !== item.key))}
                  >
                    <X className="h-5 w-5" aria-hidden="true" />
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {full ? (
        <p className="text-sm text-slate-700">A meal can list at most {MEAL_ITEMS_MAX} foods.</p>
      ) : (
        <FoodPicker
          label="Add a food"
          hideLabel={items.length > 0}
          onPick={draft.add}
          showNumbers={showNumbers}
          hint="Type any name, in English or Hindi; recent foods and recipes show first."
        />
      )}
      {!full && recent.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Recent foods" data-testid="recent-foods">
          {recent.map((food) => (
            <li key={food.id}>
              <button
                type="button"
                className="inline-flex min-h-11 items-center gap-1 rounded-full border border-slate-300 bg-white px-3 text-sm text-slate-800 hover:bg-brand-50 sm:min-h-9"
                onClick={() => draft.add(food)}
              >
                <Plus className="h-4 w-4" aria-hidden="true" />
                <span className="sr-only">Add </span>
                {food.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      {actions}
      {showNumbers && items.length > 0 && (
        <NutrientTotalsRow total={total} targets={targets} label="This meal adds up to" className="mt-1" />
      )}
    </fieldset>
  );
}
