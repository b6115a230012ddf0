import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { searchText } from '../../../server/nutrition/foods-schema';
import type { FoodSummary } from '../../../server/nutrition/schema';
import { useTRPC } from '../../lib/trpc';
import { useDebounced } from '../admin/use-debounced';

/** How long typing must pause before the search asks the server (short: results within 200 ms of a key). */
export const SEARCH_DEBOUNCE_MS = 120;

/** Foods change rarely: lists and foods by id stay fresh this long. */
const FOODS_STALE_MS = 5 * 60_000;

export type FoodSearch = {
  /** The foods to show now: the last answer, narrowed at once to those still matching what is typed. */
  foods: FoodSummary[];
  /** True when the list is the person's recent foods (nothing typed). */
  recent: boolean;
  /** A request for what is typed is still on its way. */
  searching: boolean;
  error: unknown;
};

/**
 * Food search as the person types: the server is asked once typing pauses (SEARCH_DEBOUNCE_MS),
 * and meanwhile the previous answer is narrowed in the browser to the foods whose names still hold
 * the text, so the list follows every key without a request. Nothing typed: the person's recent foods.
 */
export function useFoodSearch(q: string, { limit = 12, enabled = true }: { limit?: number; enabled?: boolean } = {}): FoodSearch {
  const trpc = useTRPC();
  const text = searchText(q);
  const settled = useDebounced(text, SEARCH_DEBOUNCE_MS);
  const query = useQuery({
    ...trpc.foods.search.queryOptions({ q: settled, limit }),
    enabled,
    staleTime: settled === '' ? 30_000 : FOODS_STALE_MS,
    placeholderData: keepPreviousData,
  });
  const foods = useMemo(() => {
    const answer = query.data ?? [];
    if (text === settled || text === '') return answer;
    // Ahead of the server: keep what still matches, else keep the last list until the answer comes.
    const needle = text.toLowerCase();
    const narrowed = answer.filter((f) => f.name.toLowerCase().includes(needle) || (f.nameHi ?? '').includes(text));
    return narrowed.length > 0 ? narrowed : answer;
  }, [query.data, text, settled]);
  return {
    foods,
    recent: text === '',
    searching: enabled && (text !== settled || query.isFetching),
    error: query.error,
  };
}

/**
 * Foods by id (a plan's or a meal's items), in the order asked; ids that are no food are left out.
 * One request for the whole set, cached by the set.
 */
export function useFoodsByIds(ids: readonly number[]): {
  foods: FoodSummary[];
  byId: Map<number, FoodSummary>;
  isLoading: boolean;
  error: unknown;
} {
  const trpc = useTRPC();
  const key = useMemo(() => [...new Set(ids)].sort((a, b) => a - b), [ids]);
  const query = useQuery({
    ...trpc.foods.byIds.queryOptions({ ids: key }),
    enabled: key.length > 0,
    staleTime: FOODS_STALE_MS,
    placeholderData: keepPreviousData,
  });
  return useMemo(() => {
    const byId = new Map((query.data ?? []).map((f) => [f.id, f]));
    return {
      foods: [...new Set(ids)].flatMap((id) => byId.get(id) ?? []),
      byId,
      isLoading: key.length > 0 && query.isLoading,
      error: query.error,
    };
  }, [query.data, query.isLoading, query.error, ids, key.length]);
}
