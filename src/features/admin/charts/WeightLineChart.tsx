import { rangeTicks } from './scale';
import { useWidth } from './use-width';

type Point = { date: string; weight: number };

const FULL = { height: 220, pad: { top: 14, right: 14, bottom: 28, left: 40 } };
/** A row-sized trend (the follow-up queue): short, first and last dates only. */
const SMALL = { height: 96, pad: { top: 8, right: 8, bottom: 20, left: 34 } };
const dayLabel = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
const toTime = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** A client's weight over time (oldest first), spaced by real dates; `small` for a row-sized trend. */
export function WeightLineChart({ points, small = false }: { points: Point[]; small?: boolean }) {
  const { ref, width: W } = useWidth<HTMLElement>(small ? 240 : 640);
  return (
    <figure ref={ref}>
      {points.length === 0 ? (
        <p className={`${small ? 'py-3' : 'py-8'} text-center text-sm text-slate-600`}>No weights recorded yet.</p>
      ) : (
        <Chart points={points} W={W} size={small ? SMALL : FULL} caption={!small} />
      )}
    </figure>
  );
}

function Chart({ points, W, size, caption }: { points: Point[]; W: number; size: typeof FULL; caption: boolean }) {
  const { height: H, pad: PAD } = size;
  const weights = points.map((p) => p.weight);
  const ticks = rangeTicks(Math.min(...weights), Math.max(...weights));
  const lo = ticks[0]!;
  const hi = ticks.at(-1)!;
  const t0 = toTime(points[0]!.date);
  const t1 = Math.max(toTime(points.at(-1)!.date), t0 + 1);
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const x = (day: string) => PAD.left + (points.length === 1 ? innerW / 2 : ((toTime(day) - t0) / (t1 - t0)) * innerW);
  const y = (w: number) => PAD.top + innerH - ((w - lo) / (hi - lo)) * innerH;
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.date).toFixed(1)},${y(p.weight).toFixed(1)}`).join(' ');
  const first = points[0]!;
  const last = points.at(-1)!;
  const change = Math.round((last.weight - first.weight) * 10) / 10;
  return (
    <>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        className="block"
        role="img"
        aria-label={`Weight from ${first.weight} kg to ${last.weight} kg (${change > 0 ? '+' : ''}${change} kg) over ${points.length} entries`}
        data-testid="weight-chart"
      >
        {(caption ? ticks : [lo, hi]).map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} stroke="#e2e8f0" />
            <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" fontSize={11} fill="#64748b">
              {t}
            </text>
          </g>
        ))}
        <path d={path} fill="none" stroke="#0f766e" strokeWidth={2.5} strokeLinejoin="round" />
        {points.map((p) => (
          <circle key={p.date} cx={x(p.date)} cy={y(p.weight)} r={3.5} fill="#0f766e">
            <title>{`${dayLabel.format(new Date(toTime(p.date)))}: ${p.weight} kg`}</title>
          </circle>
        ))}
        {(points.length > 1 ? [first, last] : [first]).map((p, i) => (
          <text
            key={i}
            x={x(p.date)}
            y={H - 8}
            textAnchor={points.length === 1 ? 'middle' : i === 0 ? 'start' : 'end'}
            fontSize={11}
            fill="#64748b"
          >
            {dayLabel.format(new Date(toTime(p.date)))}
          </text>
        ))}
      </svg>
      {caption && (
        <figcaption className="mt-1 text-sm text-slate-600">
          {first.weight} kg → {last.weight} kg ({change > 0 ? '+' : ''}
          {change} kg)
        </figcaption>
      )}
    </>
  );
}
