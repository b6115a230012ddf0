import { useQuery } from '@tanstack/react-query';
import type { NutrientKey, Nutrients } from '../../../../server/nutrition/nutrients';
import { shownNutrients } from '../../../../server/nutrition/targets-schema';
import { useTRPC } from '../../../lib/trpc';

export type NutritionTargets = {
  /** The daily targets (null: none set yet, or hidden from this client). */
  targets: Nutrients | null;
  /** The nutrients a totals panel shows: the headline five, then the ones the dietitian follows. */
  nutrients: NutrientKey[];
  /** False while the dietitian keeps numbers from the client (eating-disorder care): show no amounts to the client. */
  showNumbers: boolean;
  /** Whether a dietitian has set targets. */
  set: boolean;
  isLoading: boolean;
  error: unknown;
};

/**
 * A client's daily targets for the totals panels: a dietitian names the client, a client leaves
 * clientId out for their own. While loading, or with none set, `targets` is null and the panels
 * show amounts without targets.
 */
export function useNutritionTargets(clientId?: number): NutritionTargets {
  const trpc = useTRPC();
  // A client's own answer is asked again on every mount: the dashboard keeps its last data for
  // offline use, and numbers the dietitian has just hidden must not show from that copy.
  const query = useQuery({
    ...trpc.nutritionTargets.get.queryOptions(clientId === undefined ? {} : { clientId }),
    staleTime: clientId === undefined ? 0 : 60_000,
  });
  const view = query.data;
  const targets = view?.set && view.targets ? (view.targets as Nutrients) : null;
  return {
    targets,
    nutrients: shownNutrients(targets),
    showNumbers: view?.showNumbers ?? true,
    set: view?.set ?? false,
    isLoading: query.isLoading,
    error: query.error,
  };
}
