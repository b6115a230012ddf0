import { type Stat, STATS } from '../content';
import { useCountUp } from '../lib/use-count-up';
import { useReveal } from '../lib/use-reveal';

const suffix = (stat: Stat) => (stat.isPercentage ? '%' : '+');

function Counter({ stat, start }: { stat: Stat; start: boolean }) {
  const value = useCountUp(stat.value, start && !stat.noAnimation);
  const final = stat.display ?? `${stat.value}${suffix(stat)}`;
  const shown = stat.noAnimation ? final : `${value}${suffix(stat)}`;
  return (
    <div className="rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200">
      {/* The number counts up visually; screen readers get the final figure once. */}
      <p className="text-4xl font-extrabold text-brand-700 tabular-nums sm:text-5xl" aria-hidden="true" data-testid={`stat-${stat.id}`}>
        {shown}
      </p>
      <p className="sr-only">{final}</p>
      <p className="mt-2 font-semibold text-slate-700">{stat.label}</p>
    </div>
  );
}

/** Counters count up (about 4 s, 24 ms ticks, step ≥ 1) once the section is on screen. */
export function StatsCounters() {
  const { ref, shown } = useReveal<HTMLElement>(0.3);
  return (
    <section ref={ref} aria-labelledby="stats-title" className="bg-brand-50 py-14">
      <div className="page-container">
        <h2 id="stats-title" className="sr-only">
          Our results in numbers
        </h2>
        <div className="grid grid-cols-2 gap-4 md:grid-cols-4 md:gap-6">
          {STATS.map((stat) => (
            <Counter key={stat.id} stat={stat} start={shown} />
          ))}
        </div>
      </div>
    </section>
  );
}
