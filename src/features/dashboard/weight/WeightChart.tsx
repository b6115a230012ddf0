import { useEffect, useRef, useState } from 'react';
import { formatDay } from '../../../lib/format';
import { chartPoints, type WeightEntry } from './weight-chart';

const MARGINS = { left: 44, right: 20, top: 14, bottom: 30 };

/** The element's width in CSS pixels, so the chart's text stays readable at any width. */
function useWidth<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry && entry.contentRect.width > 0) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}
const fmtKg = (kg: number) => (Number.isInteger(kg) ? String(kg) : kg.toFixed(1));

/** Weight over time: a line through every weigh-in, round weight ticks, first and last dates. */
export function WeightChart({ entries }: { entries: WeightEntry[] }) {
  const [ref, width] = useWidth<HTMLDivElement>(640);
  const BOX = { ...MARGINS, width, height: width < 480 ? 200 : 240 };
  return (
    <div ref={ref} className="w-full">
      <Chart entries={entries} box={BOX} />
    </div>
  );
}

function Chart({ entries, box: BOX }: { entries: WeightEntry[]; box: typeof MARGINS & { width: number; height: number } }) {
  const { points, ticks, yOf } = chartPoints(entries, BOX);
  if (points.length === 0) return null;
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'} ${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
  const area = `${path} L ${last.x.toFixed(1)} ${BOX.height - BOX.bottom} L ${first.x.toFixed(1)} ${BOX.height - BOX.bottom} Z`;
  const summary =
    points.length === 1
      ? `One weigh-in: ${fmtKg(first.weight)} kg on ${formatDay(first.date)}.`
      : `Weight from ${fmtKg(first.weight)} kg on ${formatDay(first.date)} to ${fmtKg(last.weight)} kg on ${formatDay(last.date)}, ${points.length} weigh-ins.`;

  return (
    <svg viewBox={`0 0 ${BOX.width} ${BOX.height}`} className="h-auto w-full" role="img" aria-label={summary} data-testid="weight-chart">
      <defs>
        <linearGradient id="weight-area" x1="0" x2="0" y1="0" y2="1">
          <stop offset="0%" stopColor="#14b8a6" stopOpacity="0.25" />
          <stop offset="100%" stopColor="#14b8a6" stopOpacity="0" />
        </linearGradient>
      </defs>
      {ticks.map((t) => (
        <g key={t}>
          <line x1={BOX.left} x2={BOX.width - BOX.right} y1={yOf(t)} y2={yOf(t)} className="stroke-slate-200" strokeDasharray="3 4" />
          <text x={BOX.left - 8} y={yOf(t)} textAnchor="end" dominantBaseline="middle" className="fill-slate-500 text-[12px]">
            {fmtKg(t)}
          </text>
        </g>
      ))}
      {points.length > 1 && <path d={area} fill="url(#weight-area)" />}
      {points.length > 1 && (
        <path d={path} fill="none" className="stroke-brand-600" strokeWidth={3} strokeLinejoin="round" strokeLinecap="round" />
      )}
      {points.map((p) => (
        <circle key={p.id} cx={p.x} cy={p.y} r={points.length > 60 ? 2.5 : 4.5} className="fill-white stroke-brand-700" strokeWidth={2.5}>
          <title>{`${fmtKg(p.weight)} kg on ${formatDay(p.date)}`}</title>
        </circle>
      ))}
      <text x={BOX.left} y={BOX.height - 8} textAnchor="start" className="fill-slate-600 text-[12px]">
        {formatDay(first.date)}
      </text>
      {points.length > 1 && (
        <text x={BOX.width - BOX.right} y={BOX.height - 8} textAnchor="end" className="fill-slate-600 text-[12px]">
          {formatDay(last.date)}
        </text>
      )}
    </svg>
  );
}
