import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DietPlanPdfInput, drawDietPlanPdf, prepareDietPlanPdf, renderDietPlanPdf } from './diet-plan.js';
import { createPdfPool } from './pool.js';

/** A plan long enough to take pdfkit a good while: two weeks, five meals a day. */
const longPlan: DietPlanPdfInput = {
  title: 'Four weeks of balanced meals',
  from: '2026-11-02',
  to: '2026-11-15',
  clientName: 'Asha Verma',
  dietitian: { firstName: 'Meera', lastName: 'Iyer' },
  issuedOn: '2026-11-01',
  days: Array.from({ length: 14 }, (_, d) => ({
    label: `Day ${d + 1}`,
    meals: ['07:30', '10:30', '13:00', '17:00', '20:00'].map((time, m) => ({
      time,
      name: ['Breakfast', 'Mid-morning', 'Lunch', 'Evening', 'Dinner'][m]!,
      items: [
        { food: `Vegetable poha (पोहा), day ${d + 1}`, portion: { quantity: 1, unit: 'katori' as const, grams: 150 } },
        { food: 'Toned milk', portion: { quantity: 1, unit: 'glass' as const, ml: 200 } },
        { food: 'Seasonal fruit', portion: { quantity: 1, unit: 'piece' as const, grams: 100 } },
      ],
      notes: 'Chew slowly; a glass of water half an hour before.',
    })),
  })),
};

type Loop = { longestStallMs: number; p99StallMs: number; busy: number };

/**
 * How this thread's event loop fared while `work` ran: its stalls
 * (monitorEventLoopDelay, sampled every 5 ms: the longest and the 99th
 * percentile) and the share of the time it was busy rather than waiting
 * (event-loop utilisation).
 */
async function loopDuring(work: () => Promise<unknown>): Promise<Loop> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  // The sampler measures between its own ticks: let it tick before and after the work.
  const ticks = () => new Promise((resolve) => setTimeout(resolve, 30));
  await ticks();
  const start = performance.eventLoopUtilization();
  await work();
  const busy = performance.eventLoopUtilization(start).utilization;
  await ticks();
  delay.disable();
  // The figures include the sampling interval itself.
  return { longestStallMs: delay.max / 1e6 - 5, p99StallMs: delay.percentile(99) / 1e6 - 5, busy };
}

// Sized as the server sizes it: one core less than the machine has (at least one worker).
const pool = createPdfPool();
// The workers start (and load their fonts) before the tests: slow on a busy machine.
beforeAll(
  () => Promise.all(Array.from({ length: pool.size }, () => pool.render({ kind: 'diet-plan', drawing: prepareDietPlanPdf(longPlan) }))),
  120_000,
);
afterAll(() => pool.close());

describe('the PDF worker pool', () => {
  it('renders plans while this thread’s event loop stays free; drawing here instead stalls it', async () => {
    const drawing = prepareDietPlanPdf(longPlan);
    const started = performance.now();
    const inPool = await loopDuring(() => Promise.all(Array.from({ length: 2 }, () => pool.render({ kind: 'diet-plan', drawing }))));
    // The same time with nothing to do: what the machine's own scheduling adds (a busy shared machine stalls an idle loop too).
    const idle = await loopDuring(() => new Promise((resolve) => setTimeout(resolve, performance.now() - started)));
    const onThisThread = await loopDuring(() => drawDietPlanPdf(drawing));
    expect(onThisThread.longestStallMs, 'the measurement sees a render that blocks').toBeGreaterThan(100);
    expect(onThisThread.busy).toBeGreaterThan(0.8);
    // A render on this thread would keep it busy for most of the window.
    expect(inPool.busy, 'share of time this thread was busy while the pool rendered').toBeLessThan(0.2);
    // Stalls (monitorEventLoopDelay): none of render size. On a quiet machine the pool keeps them under
    // 20 ms; this shared 2-core machine stalls even an idle loop by 35–160 ms now and then, so the test
    // compares with a render on this thread rather than with a fixed figure (the figures are in the message).
    const why = `stalls while the pool rendered: p99 ${inPool.p99StallMs.toFixed(1)} ms, longest ${inPool.longestStallMs.toFixed(1)} ms; idle: p99 ${idle.p99StallMs.toFixed(1)} ms, longest ${idle.longestStallMs.toFixed(1)} ms; one render here: ${onThisThread.longestStallMs.toFixed(1)} ms`;
    expect(inPool.p99StallMs, why).toBeLessThan(onThisThread.longestStallMs / 4);
  }, 120_000);

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
