import { describe, expect, it } from 'vitest';
import { chartPoints, weightTicks } from './weight-chart';

const box = { width: 600, height: 240, left: 40, right: 20, top: 10, bottom: 30 };

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

  it('still spreads ticks for a single weight', () => {
    const ticks = weightTicks(70, 70);
    expect(ticks[0]!).toBeLessThan(70);
    expect(ticks.at(-1)!).toBeGreaterThan(70);
  });
});

describe('chartPoints', () => {
  it('orders by date and places time proportionally', () => {
    const { points } = chartPoints(
      [
        { id: 3, weight: 70, date: '2026-01-31' },
        { id: 1, weight: 72, date: '2026-01-01' },
        { id: 2, weight: 71, date: '2026-01-11' },
      ],
      box,
    );
    expect(points.map((p) => p.id)).toEqual([1, 2, 3]);
    expect(points[0]!.x).toBe(40);
    expect(points[2]!.x).toBe(580);
    expect(points[1]!.x).toBeCloseTo(40 + (540 * 10) / 30);
    // Heavier is higher up (smaller y).
    expect(points[0]!.y).toBeLessThan(points[2]!.y);
    for (const p of points) {
      expect(p.y).toBeGreaterThanOrEqual(10);
      expect(p.y).toBeLessThanOrEqual(210);
    }
  });

  it('centres a single entry and handles none', () => {
    expect(chartPoints([{ id: 1, weight: 70, date: '2026-01-01' }], box).points[0]!.x).toBe(310);
    expect(chartPoints([], box).points).toEqual([]);
  });
});
