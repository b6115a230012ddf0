import { describe, expect, it } from 'vitest';
import { isSubscriptionExpired, planEndDate, subscriptionEndDate } from './period.js';

describe('subscriptionEndDate', () => {
  it.each([
    ['2026-01-15', 1, '2026-02-14'],
    ['2026-01-01', 1, '2026-01-31'],
    ['2026-01-01', 12, '2026-12-31'],
    ['2026-03-10', 6, '2026-09-09'],
    ['2026-08-20', 6, '2027-02-19'],
    ['2026-12-01', 1, '2026-12-31'],
    // No 31 February: the plan runs to the end of February.
    ['2026-01-31', 1, '2026-02-28'],
    ['2026-01-29', 1, '2026-02-28'],
    ['2028-01-30', 1, '2028-02-29'],
    ['2026-08-31', 6, '2027-02-28'],
    ['2027-02-28', 12, '2028-02-27'],
    ['2028-02-29', 12, '2029-02-28'],
  ])('%s + %d months ends on %s', (start, months, end) => {
    expect(subscriptionEndDate(start, months)).toBe(end);
  });

  it('refuses a length that is not a whole number of months', () => {
    expect(() => subscriptionEndDate('2026-01-01', 0)).toThrow(RangeError);
    expect(() => subscriptionEndDate('2026-01-01', 1.5)).toThrow(RangeError);
  });
});

describe('isSubscriptionExpired', () => {
  it('is active through its last day and expired the day after', () => {
    expect(isSubscriptionExpired('2026-05-31', null, '2026-05-31')).toBe(false);
    expect(isSubscriptionExpired('2026-05-31', null, '2026-06-01')).toBe(true);
  });

  it('is expired once cancelled, even before its end date', () => {
    expect(isSubscriptionExpired('2099-01-01', new Date('2026-01-01T00:00:00Z'), '2026-05-01')).toBe(true);
  });
});

describe('planEndDate', () => {
  it('runs a "4 Weeks" plan 28 days, the start day included', () => {
    expect(planEndDate('2026-11-01', { durationMonths: 1, durationDays: 28 })).toBe('2026-11-28');
    expect(planEndDate('2026-12-20', { durationMonths: 1, durationDays: 28 })).toBe('2027-01-16');
    expect(planEndDate('2028-02-15', { durationMonths: 1, durationDays: 28 })).toBe('2028-03-13');
  });
  it('runs a plan without days for its months', () => {
    expect(planEndDate('2026-01-15', { durationMonths: 6 })).toBe(subscriptionEndDate('2026-01-15', 6));
  });
});
