import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { longDietPlan as longPlan } from '../../tests/helpers/pdf.js';
import { drawDietPlanPdf, prepareDietPlanPdf, renderDietPlanPdf } from './diet-plan.js';
import { createPdfPool } from './pool.js';

// The event-loop stall measurement (half a minute of renders) is an integration test:
// tests/integration/pdf-pool-stall.test.ts.

// Sized as the server sizes it: one core less than the machine has (at least one worker).
const pool = createPdfPool();
// The workers start (and load their fonts) before the tests: slow on a busy machine.
beforeAll(
  () => Promise.all(Array.from({ length: pool.size }, () => pool.render({ kind: 'diet-plan', drawing: prepareDietPlanPdf(longPlan) }))),
  120_000,
);
afterAll(() => pool.close());

describe('the PDF worker pool', () => {
  it('hands back the same document the drawing makes here', async () => {
    const drawing = prepareDietPlanPdf({ ...longPlan, days: longPlan.days.slice(0, 2) });
    const [fromPool, here] = await Promise.all([pool.render({ kind: 'diet-plan', drawing }), drawDietPlanPdf(drawing)]);
    expect(Buffer.from(fromPool.subarray(0, 5)).toString()).toBe('%PDF-');
    // Same pages and text; only the creation date and document id may differ.
    expect(fromPool.byteLength).toBeGreaterThan(10_000);
    expect(Math.abs(fromPool.byteLength - here.byteLength)).toBeLessThan(200);
  }, 30_000);

  it('keeps working after a worker dies, and answers 400 for a bad plan before any worker is involved', async () => {
    const drawing = prepareDietPlanPdf({ ...longPlan, days: longPlan.days.slice(0, 1) });
    const broken = { ...drawing, plan: null } as unknown as typeof drawing;
    await expect(pool.render({ kind: 'diet-plan', drawing: broken })).rejects.toThrow(/PDF rendering failed/);
    expect((await pool.render({ kind: 'diet-plan', drawing })).byteLength).toBeGreaterThan(1000);
    await expect(renderDietPlanPdf({ ...longPlan, title: '' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  }, 60_000);
});

describe('warming the pool', () => {
  it('starts one worker ahead of the first PDF, once, and that worker renders it', async () => {
    const warmed = createPdfPool(2);
    try {
      expect(warmed.threads()).toBe(0);
      warmed.warm();
      warmed.warm();
      expect(warmed.threads()).toBe(1);
      const drawing = prepareDietPlanPdf({ ...longPlan, days: longPlan.days.slice(0, 1) });
      expect((await warmed.render({ kind: 'diet-plan', drawing })).byteLength).toBeGreaterThan(1000);
      expect(warmed.threads()).toBe(1);
    } finally {
      await warmed.close();
    }
  }, 60_000);
});
