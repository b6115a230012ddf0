import { NUTRIENTS, formatNutrient } from '../../../../server/nutrition/nutrients';
import { Card } from '../../../components/ui/Card';
import { useNutritionTargets } from './use-targets';

/**
 * A client's own daily targets, as their dietitian set them. Shown only when the client sees
 * numbers and targets are set: a client in eating-disorder care sees nothing here (and the API
 * sends them no numbers either).
 */
export function MyTargetsCard() {
  const { targets, nutrients, showNumbers } = useNutritionTargets();
  if (!showNumbers || !targets) return null;
  return (
    <Card title="Your daily targets">
      <div className="p-4 sm:p-5" data-testid="my-targets">
        <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3">
          {nutrients.map((key) =>
            targets[key] === undefined ? null : (
              <div key={key} className="min-w-0">
                <dt className="text-sm text-slate-600">{NUTRIENTS[key].label}</dt>
                <dd className="text-lg font-semibold tabular-nums text-slate-900">{formatNutrient(key, targets[key]!)}</dd>
              </div>
            ),
          )}
        </dl>
        <p className="mt-3 text-sm text-slate-600">Set by your dietitian. Your journal and plan show how each day compares.</p>
      </div>
    </Card>
  );
}
