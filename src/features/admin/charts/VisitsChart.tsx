import type { RouterOutputs } from '../../../lib/router-types';
import { niceTicks } from '../../../components/charts/scale';
import { useWidth } from '../../../components/charts/use-width';
import { formatDay } from '../../../lib/format';

type Day = RouterOutputs['admin']['overview']['get']['visits'][number];

const H = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 36 };
/** The product's one date format without the year (27 Oct), whatever the browser's locale. */
const label = (day: string) => formatDay(day).replace(/ \d{4}$/, '');

/** Visits per day as SVG bars (visitors as the darker part), with a table for screen readers. */
export function VisitsChart({ days }: { days: Day[] }) {
  const { ref, width: W } = useWidth<HTMLElement>(720);
  // A label every week on wide screens, every other week on a phone.
  const labelEvery = W < 480 ? 14 : 7;
  const ticks = niceTicks(Math.max(...days.map((d) => d.visits), 0));
  const top = ticks.at(-1) ?? 1;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(days.length, 1);
  const barW = Math.max(2, slot * 0.7);
  const y = (v: number) => PAD.top + innerH - (v / top) * innerH;
  const total = days.reduce((s, d) => s + d.visits, 0);
  return (
    <figure className="w-full" ref={ref}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        className="block"
        role="img"
        aria-label={`Visits per day, last ${days.length} days: ${total} in all`}
      >
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} stroke="#e2e8f0" strokeWidth={1} />
            <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" fontSize={11} fill="#64748b">
              {t}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x = PAD.left + i * slot + (slot - barW) / 2;
          return (
            <g key={d.day} data-testid="visits-bar" data-day={d.day} data-visits={d.visits}>
              <title>{`${label(d.day)}: ${d.visits} visits, ${d.visitors} visitors`}</title>
              <rect x={x} y={y(d.visits)} width={barW} height={Math.max(0, y(0) - y(d.visits))} rx={2} fill="#5eead4" />
              <rect x={x} y={y(d.visitors)} width={barW} height={Math.max(0, y(0) - y(d.visitors))} rx={2} fill="#0f766e" />
              {(days.length - 1 - i) % labelEvery === 0 && (
                <text x={x + barW / 2} y={H - 8} textAnchor={i === days.length - 1 ? 'end' : 'middle'} fontSize={11} fill="#64748b">
                  {label(d.day)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-xs text-slate-600">
        <span className="flex items-center gap-1.5">
          <span className="h-3 w-3 rounded-sm bg-brand-300" aria-hidden="true" /> Visits (page loads)
        </span>
        <span className="flex items-center gap-1.5">
          <span className="h-3 w-3 rounded-sm bg-brand-700" aria-hidden="true" /> Visitors (distinct per day)
        </span>
      </figcaption>
      {/* sr-only on a wrapper: a table ignores the 1 px box and would stretch the page. */}
      <div className="sr-only">
        <table>
          <caption>Visits per day</caption>
          <thead>
            <tr>
              <th>Day</th>
              <th>Visits</th>
              <th>Visitors</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <td>{label(d.day)}</td>
                <td>{d.visits}</td>
                <td>{d.visitors}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
