import { describe, expect, it } from 'vitest';
import { chartPoints } from './weight-chart';

const box = { width: 600, height: 240, left: 40, right: 20, top: 10, bottom: 30 };

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

  it('keeps entries without ids in their given order on the same day', () => {
    const { points } = chartPoints(
      [
        { weight: 71, date: '2026-01-02' },
        { weight: 70, date: '2026-01-01' },
        { weight: 72, date: '2026-01-02' },
      ],
      box,
    );
    expect(points.map((p) => p.weight)).toEqual([70, 71, 72]);
  });
});
