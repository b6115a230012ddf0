import { useId } from 'react';
import { formatDay } from '../../lib/format';
import { useWidth } from './use-width';
import { type ChartBox, chartPoints, type WeightEntry } from './weight-chart';

/** Full size (weight history, a client's page) and a row-sized trend (the follow-up queue). */
const SIZES = {
  full: { margins: { left: 44, right: 20, top: 14, bottom: 30 }, height: (width: number) => (width < 480 ? 200 : 240), fallback: 640 },
  compact: { margins: { left: 34, right: 8, top: 8, bottom: 20 }, height: () => 96, fallback: 240 },
} as const;

const fmtKg = (kg: number) => (Number.isInteger(kg) ? String(kg) : kg.toFixed(1));

/**
 * Weight over time, the one chart for the dashboard and the console: a line
 * through every weigh-in spaced by real dates, round weight ticks, first and
 * last dates. Drawn at the element's measured width so its text stays readable.
 * With `empty`, no entries show that sentence; without it, nothing is drawn.
 * `caption` adds the change in words under the chart.
 */
export function WeightChart({
  entries,
  size = 'full',
  caption = false,
  empty,
  target,
}: {
  entries: WeightEntry[];
  size?: keyof typeof SIZES;
  caption?: boolean;
  empty?: string;
  /** The goal's target weight, drawn as a dashed line across the chart. */
  target?: ChartTarget | null;
}) {
  const { margins, height, fallback } = SIZES[size];
  const { ref, width } = useWidth<HTMLElement>(fallback);
  if (entries.length === 0 && !empty) return null;
  return (
    <figure ref={ref} className="w-full">
      {entries.length === 0 ? (
        <p className={`${size === 'compact' ? 'py-3' : 'py-8'} text-center text-sm text-slate-600`}>{empty}</p>
      ) : (
        <Chart
          entries={entries}
          box={{ ...margins, width, height: height(width) }}
          compact={size === 'compact'}
          caption={caption}
          target={target ?? null}
        />
      )}
    </figure>
  );
}

export type ChartTarget = { weight: number; date: string | null };

function Chart({
  entries,
  box,
  compact,
  caption,
  target,
}: {
  entries: WeightEntry[];
  box: ChartBox;
  compact: boolean;
  caption: boolean;
  target: ChartTarget | null;
}) {
  const gradient = useId();
  const { points, ticks, yOf } = chartPoints(entries, box, target ? [target.weight] : []);
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const change = Math.round((last.weight - first.weight) * 10) / 10;
  const signed = `${change > 0 ? '+' : ''}${fmtKg(change)}`;
  const baseline = box.height - box.bottom;
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'} ${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
  const area = `${path} L ${last.x.toFixed(1)} ${baseline} L ${first.x.toFixed(1)} ${baseline} Z`;
  const targetText = target ? `Target ${fmtKg(target.weight)} kg${target.date ? ` by ${formatDay(target.date)}` : ''}` : '';
  const summary =
    (target ? `${targetText}. ` : '') +
    (points.length === 1
      ? `One weigh-in: ${fmtKg(first.weight)} kg on ${formatDay(first.date)}.`
      : `Weight from ${fmtKg(first.weight)} kg on ${formatDay(first.date)} to ${fmtKg(last.weight)} kg on ${formatDay(last.date)} (${signed} kg), ${points.length} weigh-ins.`);
  const shownTicks = compact ? [ticks[0]!, ticks.at(-1)!] : ticks;
  const text = compact ? 'text-[11px]' : 'text-[12px]';

  return (
    <>
      <svg
        viewBox={`0 0 ${box.width} ${box.height}`}
        width={box.width}
        height={box.height}
        className="block h-auto w-full"
        role="img"
        aria-label={summary}
        data-testid="weight-chart"
      >
        <defs>
          <linearGradient id={gradient} x1="0" x2="0" y1="0" y2="1">
            <stop offset="0%" stopColor="#14b8a6" stopOpacity="0.25" />
            <stop offset="100%" stopColor="#14b8a6" stopOpacity="0" />
          </linearGradient>
        </defs>
        {shownTicks.map((t) => (
          <g key={t}>
            <line x1={box.left} x2={box.width - box.right} y1={yOf(t)} y2={yOf(t)} className="stroke-slate-200" strokeDasharray="3 4" />
            <text x={box.left - 6} y={yOf(t)} textAnchor="end" dominantBaseline="middle" className={`fill-slate-500 ${text}`}>
              {fmtKg(t)}
            </text>
          </g>
        ))}
        {points.length > 1 && <path d={area} fill={`url(#${gradient})`} />}
        {target && (
          <g data-testid="weight-target-line">
            <line
              x1={box.left}
              x2={box.width - box.right}
              y1={yOf(target.weight)}
              y2={yOf(target.weight)}
              className="stroke-amber-600"
              strokeWidth={2}
              strokeDasharray="8 5"
            />
            <text x={box.width - box.right} y={yOf(target.weight) - 6} textAnchor="end" className={`fill-amber-800 font-semibold ${text}`}>
              {targetText}
            </text>
          </g>
        )}
        {points.length > 1 && (
          <path
            d={path}
            fill="none"
            className="stroke-brand-600"
            strokeWidth={compact ? 2 : 3}
            strokeLinejoin="round"
            strokeLinecap="round"
          />
        )}
        {points.map((p, i) => (
          <circle
            key={p.id ?? i}
            cx={p.x}
            cy={p.y}
            r={compact || points.length > 60 ? 2.5 : 4.5}
            className="fill-white stroke-brand-700"
            strokeWidth={compact ? 2 : 2.5}
          >
            <title>{`${fmtKg(p.weight)} kg on ${formatDay(p.date)}`}</title>
          </circle>
        ))}
        <text
          x={points.length > 1 ? box.left : first.x}
          y={box.height - (compact ? 5 : 8)}
          textAnchor={points.length > 1 ? 'start' : 'middle'}
          className={`fill-slate-600 ${text}`}
        >
          {formatDay(first.date)}
        </text>
        {points.length > 1 && (
          <text x={box.width - box.right} y={box.height - (compact ? 5 : 8)} textAnchor="end" className={`fill-slate-600 ${text}`}>
            {formatDay(last.date)}
          </text>
        )}
      </svg>
      {caption && (
        <figcaption className="mt-1 text-sm text-slate-600">
          {fmtKg(first.weight)} kg → {fmtKg(last.weight)} kg ({signed} kg)
        </figcaption>
      )}
    </>
  );
}
