import { describe, expect, it } from 'vitest';
import { RATING_LABELS, ratingLabel } from '../../../../server/rating/schema';
import { starFill } from './HalfStarRating';

describe('starFill', () => {
  it('fills whole stars up to the rating and half of the next one at x.5', () => {
    expect([1, 2, 3, 4, 5].map((star) => starFill(3.5, star))).toEqual([1, 1, 1, 0.5, 0]);
    expect([1, 2, 3, 4, 5].map((star) => starFill(0.5, star))).toEqual([0.5, 0, 0, 0, 0]);
    expect([1, 2, 3, 4, 5].map((star) => starFill(5, star))).toEqual([1, 1, 1, 1, 1]);
  });

  it('fills nothing before a star is chosen', () => {
    expect([1, 2, 3, 4, 5].map((star) => starFill(0, star))).toEqual([0, 0, 0, 0, 0]);
  });
});

describe('the hover labels of the ten half stars', () => {
  it('reads Useless at half a star up to Excellent+ at five', () => {
    const halves = Array.from({ length: 10 }, (_, i) => (i + 1) / 2);
    expect(halves.map((v) => ratingLabel(v))).toEqual([...RATING_LABELS]);
    expect(ratingLabel(0.5)).toBe('Useless');
    expect(ratingLabel(3.5)).toBe('Good');
    expect(ratingLabel(5)).toBe('Excellent+');
    expect(ratingLabel(0)).toBeUndefined();
  });
});
