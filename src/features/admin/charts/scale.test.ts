import { expect, it } from 'vitest';
import { niceTicks, rangeTicks } from './scale';

it('covers the maximum with round steps', () => {
  expect(niceTicks(0)).toEqual([0, 1]);
  expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
  expect(niceTicks(100)).toEqual([0, 25, 50, 75, 100]);
  expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
});

it('frames a range that does not start at zero', () => {
  expect(rangeTicks(58.2, 62.9)).toEqual([58, 60, 62, 64]);
  expect(rangeTicks(70, 70)).toEqual([69, 71]);
});
