import { expect, it } from 'vitest';
import { COUNT_DURATION_MS, COUNT_TICK_MS, countStep } from './use-count-up';

it('spreads a counter over about 4 s of 24 ms ticks, never stepping less than 1', () => {
  expect(COUNT_DURATION_MS).toBe(4000);
  expect(COUNT_TICK_MS).toBe(24);
  const ticks = (target: number) => Math.ceil(target / countStep(target));
  // Large targets take the full 4 s: 4000 / 24 ≈ 167 ticks.
  expect(ticks(250)).toBe(167);
  expect(ticks(300)).toBe(167);
  expect(ticks(10_000)).toBe(167);
  // Small targets step by 1, so they finish sooner.
  expect(countStep(98)).toBe(1);
  expect(countStep(24)).toBe(1);
  expect(countStep(0)).toBe(1);
});
