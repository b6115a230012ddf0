import { useQuery } from '@tanstack/react-query';
import { standing } from '../../../server/nutrition/compute';
import type { NutritionDay } from '../../../server/nutrition/days-schema';
import { formatNutrient, HEADLINE_NUTRIENTS, NUTRIENTS, type NutrientKey } from '../../../server/nutrition/nutrients';
import { Card } from '../../components/ui/Card';
import { LoadError, Loading } from '../../components/ui/States';
import { useTRPC } from '../../lib/trpc';

const weekday = new Intl.DateTimeFormat('en-IN', { weekday: 'short', timeZone: 'UTC' });
const dayName = (date: string) => weekday.format(new Date(`${date}T00:00:00Z`));
const percent = (share: number) => `${Math.round(share * 100)} %`;
/** Bars stop at 150 % of the target: past that the height says nothing more. */
const CAP = 1.5;
const BAR_TONE = { under: 'bg-amber-500', within: 'bg-emerald-600', over: 'bg-red-600' } as const;

/**
 * The console's view of a client's week: each headline nutrient per day as a share of its daily
 * target (a bar, the target a line at 100 %), the day's amount in words for screen readers and on
 * hover. A day whose meals list no foods has no bar (not known, not zero). Reloads with the
 * journal (use-journal-day's reload).
 */
export function WeekIntakeChart({ clientId }: { clientId: number }) {
  const trpc = useTRPC();
  const days = useQuery({ ...trpc.nutritionDays.list.queryOptions({ clientId }), staleTime: 10_000 });
  return (
    <Card title="This week’s intake against targets" className="lg:col-span-2">
      <div className="p-4 sm:p-5" data-testid="week-intake">
        {days.isPending ? (
          <Loading label="Loading the week’s intake" />
        ) : days.isError ? (
          <LoadError error={days.error} onRetry={() => void days.refetch()} />
        ) : Object.keys(days.data.targets).length === 0 ? (
          <p className="text-slate-600">No targets set yet: set them to see the week against them.</p>
        ) : days.data.days.every((d) => d.mealsWithFoods === 0) ? (
          <p className="text-slate-600">No meal of the last 7 days lists its foods yet.</p>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {HEADLINE_NUTRIENTS.filter((key) => days.data.targets[key] !== undefined).map((key) => (
              <NutrientWeek key={key} nutrient={key} target={days.data.targets[key]!} days={days.data.days} />
            ))}
          </div>
        )}
        {!days.isPending && !days.isError && !days.data.showNumbers && (
          <p className="mt-3 text-sm text-slate-600">The client does not see these numbers (set in the targets).</p>
        )}
      </div>
    </Card>
  );
}

function NutrientWeek({ nutrient, target, days }: { nutrient: NutrientKey; target: number; days: NutritionDay[] }) {
  const { label } = NUTRIENTS[nutrient];
  return (
    <figure className="min-w-0" data-nutrient={nutrient}>
      <figcaption className="mb-1 text-sm font-medium text-slate-900">
        {label} <span className="font-normal text-slate-600">· target {formatNutrient(nutrient, target)} a day</span>
      </figcaption>
      <ol className="relative flex h-28 items-end gap-1.5 border-b border-slate-300" aria-label={`${label} per day against the target`}>
        <li
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 border-t border-dashed border-slate-500"
          style={{ bottom: `${(1 / CAP) * 100}%` }}
        />
        {days.map((day) => {
          const value = day.totals.values[nutrient];
          const share = day.shares[nutrient];
          const known = day.mealsWithFoods > 0 && share !== undefined;
          const words = known
            ? `${dayName(day.date)}: ${formatNutrient(nutrient, value ?? 0)}, ${percent(share)} of target`
            : `${dayName(day.date)}: no foods logged`;
          return (
            <li key={day.date} className="flex h-full flex-1 flex-col justify-end" title={words}>
              <span className="sr-only">{words}</span>
              {known && (
                <span
                  aria-hidden="true"
                  className={`block w-full rounded-t ${BAR_TONE[standing(share) ?? 'within']}`}
                  style={{ height: `${(Math.min(share, CAP) / CAP) * 100}%` }}
                />
              )}
            </li>
          );
        })}
      </ol>
      <div aria-hidden="true" className="mt-1 flex gap-1.5 text-center text-[11px] text-slate-600">
        {days.map((day) => (
          <span key={day.date} className="flex-1">
            {dayName(day.date)}
          </span>
        ))}
      </div>
    </figure>
  );
}
