import { describe, expect, it } from 'vitest';
import { awayReply, nextOpening } from './office-hours.js';

const weekdays = { days: [1, 2, 3, 4, 5], opens: '09:00', closes: '18:00' };
/** A moment given in India time. */
const ist = (local: string) => new Date(`${local}+05:30`);

describe('office hours in India time', () => {
  it('is open on a weekday between opening and closing', () => {
    // 26 Nov 2026 is a Thursday.
    expect(nextOpening(weekdays, ist('2026-11-26T09:00:00'))).toBeNull();
    expect(nextOpening(weekdays, ist('2026-11-26T17:59:59'))).toBeNull();
  });

  it('names the next opening when closed: the same morning, the next day, after the weekend', () => {
    expect(nextOpening(weekdays, ist('2026-11-26T08:59:00'))).toEqual(ist('2026-11-26T09:00:00'));
    expect(nextOpening(weekdays, ist('2026-11-26T18:00:00'))).toEqual(ist('2026-11-27T09:00:00'));
    // Friday evening, Saturday, Sunday: Monday 30 Nov.
    expect(nextOpening(weekdays, ist('2026-11-27T19:00:00'))).toEqual(ist('2026-11-30T09:00:00'));
    expect(nextOpening(weekdays, ist('2026-11-29T23:30:00'))).toEqual(ist('2026-11-30T09:00:00'));
  });

  it('counts the day by India’s calendar, not UTC’s (00:30 in India is the previous day in UTC)', () => {
    // Saturday 00:30 in India is Friday 19:00 UTC: closed, opening Monday.
    expect(nextOpening(weekdays, ist('2026-11-28T00:30:00'))).toEqual(ist('2026-11-30T09:00:00'));
  });

  it('is always open without days', () => {
    expect(nextOpening(null, new Date())).toBeNull();
    expect(nextOpening({ days: [], opens: '09:00', closes: '18:00' }, new Date())).toBeNull();
    expect(nextOpening({ days: null, opens: '09:00', closes: '18:00' }, new Date())).toBeNull();
  });

  it('tells the client when to expect an answer', () => {
    expect(awayReply(ist('2026-11-30T09:00:00'))).toContain('We are back on Monday, 30 Nov 2026, 9:00 am (India time)');
  });
});
