import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import { analysePlan, type DayAnalysis, linkedFoodIds, type PlanDay } from '../../../../server/diet-plan/schema';
import type { FoodSummary } from '../../../../server/nutrition/schema';
import { useFoodsByIds } from '../../nutrition/use-foods';

/**
 * What the plan in the builder adds up to, live: the foods its items link to (fetched once per set
 * of foods, and the ones just picked already in hand) and the sums of every item, meal and day,
 * computed in the browser with the server's own functions at every keystroke, no request needed.
 */
type PlanSums = {
  /** The plan as typed so far (names, links and portions). */
  plan: PlanDay[];
  foods: ReadonlyMap<number, FoodSummary>;
  days: DayAnalysis[];
  /** Keeps a food the dietitian just picked, so its sums show before any answer arrives. */
  remember: (food: FoodSummary) => void;
};

const PlanSumsContext = createContext<PlanSums>({ plan: [], foods: new Map(), days: [], remember: () => {} });

export function usePlanSums() {
  return useContext(PlanSumsContext);
}

/** The days as the form holds them while typing (numbers may be half-typed). */
type DraftItem = { food?: string; foodId?: number; portion?: Partial<PlanDay['meals'][number]['items'][number]['portion']> };
type DraftDays = readonly { label?: string; meals?: readonly { name?: string; items?: readonly DraftItem[] }[] }[];

function asDays(days: DraftDays | undefined): PlanDay[] {
  return (days ?? []).map((day) => ({
    label: day.label ?? '',
    meals: (day.meals ?? []).map((meal) => ({
      time: '',
      name: meal.name ?? '',
      items: (meal.items ?? []).map((item) => ({
        food: item.food ?? '',
        ...(typeof item.foodId === 'number' ? { foodId: item.foodId } : {}),
        portion: { ...item.portion, quantity: item.portion?.quantity ?? Number.NaN, unit: item.portion?.unit ?? 'g' },
      })),
    })),
  }));
}

export function PlanSumsProvider({ days, children }: { days: DraftDays | undefined; children: React.ReactNode }) {
  const plan = useMemo(() => asDays(days), [days]);
  const ids = useMemo(() => linkedFoodIds(plan), [plan]);
  const [picked, setPicked] = useState<ReadonlyMap<number, FoodSummary>>(new Map());
  const missing = useMemo(() => ids.filter((id) => !picked.has(id)), [ids, picked]);
  const fetched = useFoodsByIds(missing);
  const foods = useMemo(() => new Map([...fetched.byId, ...picked]), [fetched.byId, picked]);
  const sums = useMemo(() => analysePlan(plan, foods), [plan, foods]);
  const remember = useCallback((food: FoodSummary) => setPicked((m) => new Map(m).set(food.id, food)), []);
  const value = useMemo(() => ({ plan, foods, days: sums, remember }), [plan, foods, sums, remember]);
  return <PlanSumsContext.Provider value={value}>{children}</PlanSumsContext.Provider>;
}
