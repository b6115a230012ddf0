import { Link2, Link2Off } from 'lucide-react';
import type { ReactNode } from 'react';
import type { PlanTotal } from '../../../../server/diet-plan/schema';
import { formatNutrient, type NutrientKey, type Nutrients } from '../../../../server/nutrition/nutrients';
import type { FoodSummary } from '../../../../server/nutrition/schema';
import { Button } from '../../../components/ui/Button';
import { FoodPicker } from '../../nutrition/FoodPicker';
import { NutrientTotals, NutrientTotalsRow } from '../../nutrition/NutrientTotals';
import { useNutritionTargets } from '../../nutrition/targets/use-targets';
import { usePlanSums } from './plan-sums';

/** "2 items are free text and not counted": the sums above leave them out, and say so. */
export function unlinkedNote(total: Pick<PlanTotal, 'unlinked'>): string | null {
  if (total.unlinked === 0) return null;
  return `${total.unlinked} ${total.unlinked === 1 ? 'item is' : 'items are'} not linked to a food (or not weighed) and not counted.`;
}

type Targets = { targets: Nutrients | null; nutrients?: NutrientKey[] };

/** The client's targets once a client is chosen; none (amounts only) until then. */
function WithTargets({ clientId, children }: { clientId: number | undefined; children: (t: Targets) => ReactNode }) {
  if (clientId === undefined) return children({ targets: null });
  return <ClientTargets clientId={clientId}>{children}</ClientTargets>;
}

function ClientTargets({ clientId, children }: { clientId: number; children: (t: Targets) => ReactNode }) {
  const { targets, nutrients } = useNutritionTargets(clientId);
  return children({ targets, nutrients });
}

/** A meal's line of sums under its foods. */
export function MealSums({ d, m, clientId }: { d: number; m: number; clientId: number | undefined }) {
  const sums = usePlanSums();
  const total = sums.days[d]?.meals[m]?.total;
  const mealName = sums.plan[d]?.meals[m]?.name ?? '';
  if (!total || total.items === 0) return null;
  const note = unlinkedNote(total);
  return (
    <div className="mt-2 rounded-lg bg-slate-50 px-3 py-2" data-testid="meal-sums">
      <WithTargets clientId={clientId}>
        {({ targets, nutrients }) => (
          <NutrientTotalsRow total={total} targets={targets} nutrients={nutrients} label={`${mealName || `Meal ${m + 1}`} adds up to`} />
        )}
      </WithTargets>
      {note && <p className="mt-0.5 text-xs text-slate-600">{note}</p>}
    </div>
  );
}

/** A day's sums against the client's targets, with a mark where it is under or over. */
export function DaySums({ d, clientId }: { d: number; clientId: number | undefined }) {
  const sums = usePlanSums();
  const total = sums.days[d]?.total;
  const dayLabel = sums.plan[d]?.label ?? '';
  if (!total) return null;
  const name = dayLabel || `Day ${d + 1}`;
  const note = unlinkedNote(total);
  return (
    <section
      aria-label={`${name}: daily totals`}
      className="mt-3 rounded-xl border border-brand-200 bg-brand-50/40 p-3"
      data-testid="day-sums"
    >
      <h3 className="mb-2 text-sm font-semibold text-slate-900">{name} adds up to</h3>
      {total.items === 0 ? (
        <p className="text-sm text-slate-700">Link foods to the food library to see what this day adds up to.</p>
      ) : (
        <WithTargets clientId={clientId}>
          {({ targets, nutrients }) => (
            <>
              <NutrientTotals total={total} targets={targets} nutrients={nutrients} label={`${name} totals`} />
              {!targets && <p className="mt-2 text-xs text-slate-600">No targets set for this client: amounts only.</p>}
            </>
          )}
        </WithTargets>
      )}
      {note && total.items > 0 && <p className="mt-1 text-xs text-slate-600">{note}</p>}
    </section>
  );
}

/**
 * An item's link to the food library: a picker until linked, then the food with what this portion
 * weighs and carries, and a way to unlink (the item goes back to free text).
 */
export function ItemFood({
  d,
  m,
  i,
  foodId,
  onLink,
  onUnlink,
}: {
  d: number;
  m: number;
  i: number;
  foodId: number | undefined;
  onLink: (food: FoodSummary) => void;
  onUnlink: () => void;
}) {
  const sums = usePlanSums();
  if (foodId === undefined) {
    return (
      <div className="col-span-full">
        <FoodPicker label="Link to a food" placeholder="Search the food library (e.g. roti, dal)" onPick={onLink} limit={8} />
      </div>
    );
  }
  const food = sums.foods.get(foodId);
  const item = sums.days[d]?.meals[m]?.items[i];
  const n = item?.nutrients;
  const amounts = n
    ? [
        n.energyKcal !== undefined ? formatNutrient('energyKcal', n.energyKcal) : null,
        n.proteinG !== undefined ? `${formatNutrient('proteinG', n.proteinG)} protein` : null,
      ]
        .filter(Boolean)
        .join(' · ')
    : null;
  return (
    <div className="col-span-full flex items-center justify-between gap-2 text-sm" data-testid="item-food">
      <span className="flex min-w-0 items-start gap-2">
        <Link2 className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
        <span className="min-w-0 text-slate-800">
          Linked to <strong>{food?.name ?? 'a food'}</strong>
          {item?.grams != null && <span className="tabular-nums"> · {Math.round(item.grams * 10) / 10} g</span>}
          {amounts && <span className="tabular-nums text-slate-700"> · {amounts}</span>}
          {food && item?.grams === null && (
            <span className="text-amber-900"> · give its grams: this food has no weight for that measure</span>
          )}
        </span>
      </span>
      <Button variant="ghost" size="sm" onClick={onUnlink} aria-label={`Unlink food ${i + 1} from the food library`}>
        <Link2Off className="h-4 w-4" aria-hidden="true" />
        Unlink
      </Button>
    </div>
  );
}
