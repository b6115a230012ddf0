import { ArrowDown, ArrowUp, Check } from 'lucide-react';
import { type Total, shareOf, standing } from '../../../server/nutrition/compute';
import { NUTRIENTS, type NutrientKey, type Nutrients, formatNutrient } from '../../../server/nutrition/nutrients';
import { shownNutrients } from '../../../server/nutrition/targets-schema';

type Standing = ReturnType<typeof standing>;

const MARK: Record<Exclude<Standing, null>, { word: string; tone: string; bar: string; Icon: typeof Check }> = {
  under: { word: 'Under', tone: 'bg-amber-50 text-amber-900 ring-amber-300', bar: 'bg-amber-500', Icon: ArrowDown },
  within: { word: 'On target', tone: 'bg-emerald-50 text-emerald-900 ring-emerald-300', bar: 'bg-emerald-600', Icon: Check },
  over: { word: 'Over', tone: 'bg-red-50 text-red-900 ring-red-300', bar: 'bg-red-600', Icon: ArrowUp },
};

const percent = (share: number) => `${Math.round(share * 100)} %`;

/** "2 foods without iron data": the sum above leaves them out, so the reader knows it may be low. */
export function missingNote(key: NutrientKey, missing: number | undefined): string | null {
  if (!missing) return null;
  return `${missing} ${missing === 1 ? 'food' : 'foods'} without ${NUTRIENTS[key].label.toLowerCase()} data`;
}

type Props = {
  total: Total;
  /** The client's daily targets (null or left out: none set, values only). */
  targets?: Nutrients | null;
  /** What to show; by default the headline five and the micronutrients the targets follow. */
  nutrients?: readonly NutrientKey[];
  /** Names the list for screen readers ("Breakfast totals", "Monday's totals"). */
  label: string;
  className?: string;
};

/**
 * A day's nutrients against the client's targets: each nutrient's amount, its target, the share
 * reached and a mark in words and icon (under below 80 %, over above 120 %: compute.ts's
 * `standing`), never colour alone. A nutrient some foods do not know says how many. Works on a
 * phone (one column) and a desk (two or three). Callers hide it when the client may not see
 * numbers (targets' showNumbers).
 */
export function NutrientTotals({ total, targets, nutrients, label, className = '' }: Props) {
  const keys = nutrients ?? shownNutrients(targets);
  return (
    <ul aria-label={label} className={`grid gap-2 sm:grid-cols-2 xl:grid-cols-3 ${className}`} data-testid="nutrient-totals">
      {keys.map((key) => {
        const value = total.values[key];
        const target = targets?.[key];
        const share = shareOf(value, target);
        const mark = standing(share);
        const note = missingNote(key, total.missing[key]);
        const info = mark ? MARK[mark] : null;
        return (
          <li
            key={key}
            className="min-w-0 rounded-xl border border-slate-200 bg-white px-3 py-2"
            data-nutrient={key}
            data-standing={mark ?? 'none'}
          >
            <div className="flex flex-wrap items-baseline justify-between gap-x-2">
              <span className="font-medium text-slate-900">{NUTRIENTS[key].label}</span>
              <span className="tabular-nums text-slate-800">
                {value === undefined ? <span className="text-slate-600">not known</span> : formatNutrient(key, value)}
                {target !== undefined && <span className="text-slate-600"> of {formatNutrient(key, target)}</span>}
              </span>
            </div>
            {share !== null && info && (
              <div className="mt-1.5 flex items-center gap-2">
                <div className="h-2 min-w-0 flex-1 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                  <div className={`h-full rounded-full ${info.bar}`} style={{ width: `${Math.min(100, share * 100)}%` }} />
                </div>
                <span className="tabular-nums text-sm text-slate-700">{percent(share)}</span>
                <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${info.tone}`}>
                  <info.Icon className="h-3.5 w-3.5" aria-hidden="true" />
                  {info.word}
                </span>
              </div>
            )}
            {note && <p className="mt-1 text-xs text-amber-900">{note}</p>}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * A meal's (or a plan item's) nutrients in one compact line: each amount and, with targets, its
 * share of the day's target. No under/over mark: a meal is a part of a day, and only a day is
 * measured against its targets.
 */
export function NutrientTotalsRow({ total, targets, nutrients, label, className = '' }: Props) {
  const keys = nutrients ?? shownNutrients(targets);
  const notes = keys.map((key) => missingNote(key, total.missing[key])).filter((n): n is string => n !== null);
  return (
    <div className={`min-w-0 text-sm ${className}`} data-testid="nutrient-totals-row">
      <dl aria-label={label} className="flex flex-wrap gap-x-3 gap-y-1">
        {keys.map((key) => {
          const value = total.values[key];
          const share = shareOf(value, targets?.[key]);
          const missing = total.missing[key];
          return (
            <div key={key} className="flex items-baseline gap-1" data-nutrient={key}>
              <dt className="text-slate-600">
                <span aria-hidden="true">{NUTRIENTS[key].short === NUTRIENTS[key].unit ? 'Energy' : NUTRIENTS[key].short}</span>
                <span className="sr-only">{NUTRIENTS[key].label}</span>
              </dt>
              <dd className="tabular-nums font-medium text-slate-900">
                {value === undefined ? '–' : formatNutrient(key, value)}
                {missing ? <span aria-hidden="true">*</span> : null}
                {share !== null && <span className="font-normal text-slate-600"> ({percent(share)} of day)</span>}
              </dd>
            </div>
          );
        })}
      </dl>
      {notes.length > 0 && (
        <p className="mt-0.5 text-xs text-amber-900">
          <span aria-hidden="true">* </span>
          {notes.join('; ')}
        </p>
      )}
    </div>
  );
}
