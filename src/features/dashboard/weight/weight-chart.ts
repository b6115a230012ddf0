/**
 * Geometry of the weight-over-time chart: entries (any order) → points in an
 * SVG box, with round-number weight ticks. Time runs left to right by date,
 * so uneven gaps between weigh-ins look uneven.
 */
export type WeightEntry = { id: number; weight: number; date: string };
export type ChartBox = { width: number; height: number; left: number; right: number; top: number; bottom: number };
export type ChartPoint = WeightEntry & { x: number; y: number };

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/** 3 to 5 round ticks covering [min, max] with some headroom. */
export function weightTicks(min: number, max: number): number[] {
  const span = Math.max(max - min, 2);
  const rawStep = span / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rawStep));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= rawStep) ?? 10 * magnitude;
  const low = Math.floor((min - step / 2) / step) * step;
  const high = Math.ceil((max + step / 2) / step) * step;
  const ticks: number[] = [];
  for (let t = low; t <= high + step / 1000; t += step) ticks.push(Math.round(t * 100) / 100);
  return ticks;
}

export function chartPoints(entries: WeightEntry[], box: ChartBox): { points: ChartPoint[]; ticks: number[]; yOf: (kg: number) => number } {
  const sorted = [...entries].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id));
  const weights = sorted.map((e) => e.weight);
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
