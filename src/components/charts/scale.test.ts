import { describe, expect, it } from 'vitest';
import { niceTicks, weightTicks } from './scale';

describe('niceTicks', () => {
  it('covers the maximum with round steps from zero', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(100)).toEqual([0, 25, 50, 75, 100]);
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
  });
});

describe('weightTicks', () => {
  it('covers the range with round steps and headroom', () => {
    const ticks = weightTicks(68.4, 72.1);
    expect(ticks[0]!).toBeLessThan(68.4);
    expect(ticks.at(-1)!).toBeGreaterThan(72.1);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks.length).toBeLessThanOrEqual(8);
    const steps = ticks.slice(1).map((t, i) => Math.round((t - ticks[i]!) * 100) / 100);
    expect(new Set(steps).size).toBe(1);
  });

  it('frames a range that does not start at zero', () => {
    expect(weightTicks(58.2, 62.9)).toEqual([56, 58, 60, 62, 64]);
  });

  it('still spreads ticks for a single weight', () => {
    const ticks = weightTicks(70, 70);
    expect(ticks[0]!).toBeLessThan(70);
    expect(ticks.at(-1)!).toBeGreaterThan(70);
  });
});
