import { describe, expect, it } from 'vitest';
import { addRatingInput, fromHalfStars, RATING_LABELS, ratingForm, ratingLabel, toHalfStars } from './schema.js';

describe('ratingLabel', () => {
  it.each([
    [0.5, 'Useless'],
    [1, 'Useless+'],
    [1.5, 'Poor'],
    [2, 'Poor+'],
    [2.5, 'Ok'],
    [3, 'Ok+'],
    [3.5, 'Good'],
    [4, 'Good+'],
    [4.5, 'Excellent'],
    [5, 'Excellent+'],
  ])('labels %d stars "%s"', (stars, label) => {
    expect(ratingLabel(stars)).toBe(label);
  });

  it('has one label per half star, from the lowest to the highest', () => {
    expect(RATING_LABELS).toHaveLength(10);
    expect(RATING_LABELS[0]).toBe('Useless');
    expect(RATING_LABELS[9]).toBe('Excellent+');
  });

  it.each([0, -0.5, 0.25, 1.2, 5.5, 10, Number.NaN])('has no label for %d', (stars) => {
    expect(ratingLabel(stars)).toBeUndefined();
  });
});

describe('half stars', () => {
  it('round-trips every valid value exactly', () => {
    for (let half = 1; half <= 10; half++) expect(toHalfStars(fromHalfStars(half))).toBe(half);
  });
});

describe('ratingForm', () => {
  const firstMessage = (input: unknown) => {
    const r = ratingForm.safeParse(input);
    return r.success ? null : r.error.issues[0]?.message;
  };

  it('asks for stars when missing, blank or still 0', () => {
    expect(firstMessage({})).toBe('Ratings are required');
    expect(firstMessage({ reviewStar: '' })).toBe('Ratings are required');
    expect(firstMessage({ reviewStar: 0 })).toBe('Ratings are required');
    expect(ratingForm.safeParse({ reviewStar: 0 }).error?.issues).toHaveLength(1);
  });

  it('keeps to the half-star grid', () => {
    expect(firstMessage({ reviewStar: 4.25 })).toBe('Ratings go from 0.5 to 5 stars in half-star steps');
    expect(firstMessage({ reviewStar: 6 })).toBe('Ratings go from 0.5 to 5 stars in half-star steps');
    expect(firstMessage({ reviewStar: 'lots' })).toBe('Ratings must be a number');
  });

  it('makes the comment optional and trims it', () => {
    expect(ratingForm.parse({ reviewStar: '4.5' })).toEqual({ reviewStar: 4.5, reviewComment: '' });
    expect(ratingForm.parse({ reviewStar: 3, reviewComment: null })).toEqual({ reviewStar: 3, reviewComment: '' });
    expect(ratingForm.parse({ reviewStar: 3, reviewComment: '  Lovely  ' }).reviewComment).toBe('Lovely');
    expect(firstMessage({ reviewStar: 3, reviewComment: 'x'.repeat(1001) })).toBe('Your review must be at most 1000 characters');
  });

  it('takes reviewBy as a positive id', () => {
    expect(addRatingInput.parse({ reviewStar: 1, reviewBy: '7' }).reviewBy).toBe(7);
    expect(addRatingInput.safeParse({ reviewStar: 1, reviewBy: 'me' }).error?.issues[0]?.message).toBe('reviewBy must be a number');
  });
});
