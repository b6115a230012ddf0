/**
 * Axis ticks for the app's charts: one place decides what a "round" step is.
 * A step is 1, 2, 2.5 or 5 times a power of ten, the first that is at least `rough`.
 */
function roundStep(rough: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? 10 * magnitude;
}

/** Counts (visits): 0 to a round maximum that covers `max`, in about `count` steps. */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const step = roundStep(max / count);
  const top = Math.ceil(max / step) * step;
  return Array.from({ length: Math.round(top / step) + 1 }, (_, i) => Math.round(i * step * 1000) / 1000);
}

/** Weights: 3 to 5 round ticks around [min, max] (not from zero), with half a step of headroom each side. */
export function weightTicks(min: number, max: number): number[] {
  const step = roundStep(Math.max(max - min, 2) / 4);
  const low = Math.floor((min - step / 2) / step) * step;
  const high = Math.ceil((max + step / 2) / step) * step;
  const ticks: number[] = [];
  for (let t = low; t <= high + step / 1000; t += step) ticks.push(Math.round(t * 100) / 100);
  return ticks;
}
