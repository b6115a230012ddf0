import { DAY_MS } from '../../../server/time';
import { weightTicks } from './scale';

/**
 * Geometry of the weight-over-time chart: entries (any order) → points in an
 * SVG box, with round-number weight ticks. Time runs left to right by date,
 * so uneven gaps between weigh-ins look uneven.
 */
export type WeightEntry = { date: string; weight: number; id?: number };
export type ChartBox = { width: number; height: number; left: number; right: number; top: number; bottom: number };
export type ChartPoint = WeightEntry & { x: number; y: number };

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/** `alsoShow`: weights the scale must reach besides the entries' (a target weight's line). */
export function chartPoints(
  entries: WeightEntry[],
  box: ChartBox,
  alsoShow: number[] = [],
): { points: ChartPoint[]; ticks: number[]; yOf: (kg: number) => number } {
  // Same day: the earlier entry (lower id, or earlier in the list) first.
  const sorted = entries
    .map((e, i) => ({ e, order: e.id ?? i }))
    .sort((a, b) => (a.e.date < b.e.date ? -1 : a.e.date > b.e.date ? 1 : a.order - b.order))
    .map(({ e }) => e);
  const weights = [...sorted.map((e) => e.weight), ...alsoShow];
  const ticks = sorted.length ? weightTicks(Math.min(...weights), Math.max(...weights)) : [];
  const lowTick = ticks[0] ?? 0;
  const highTick = ticks[ticks.length - 1] ?? 1;
  const plotWidth = box.width - box.left - box.right;
  const plotHeight = box.height - box.top - box.bottom;
  const yOf = (kg: number) => box.top + plotHeight * (1 - (kg - lowTick) / (highTick - lowTick || 1));
  const firstDay = sorted.length ? dayNumber(sorted[0]!.date) : 0;
  const lastDay = sorted.length ? dayNumber(sorted[sorted.length - 1]!.date) : 0;
  const points = sorted.map((e) => {
    const x =
      lastDay === firstDay ? box.left + plotWidth / 2 : box.left + (plotWidth * (dayNumber(e.date) - firstDay)) / (lastDay - firstDay);
    return { ...e, x, y: yOf(e.weight) };
  });
  return { points, ticks, yOf };
}
