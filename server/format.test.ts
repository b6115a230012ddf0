import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDay, formatMoment, formatPhone, formatRupees, groupRupees } from './format.js';

describe('one date format', () => {
  it('shows days as 23 Nov 2026', () => {
    expect(formatDay('2026-11-23')).toBe('23 Nov 2026');
    expect(formatDay('2026-09-03')).toBe('3 Sep 2026');
    expect(formatDay(new Date('2026-01-05T00:00:00Z'))).toBe('5 Jan 2026');
    expect(formatDay('nonsense')).toBe('Invalid date');
    expect(formatDay(null)).toBe('Invalid date');
  });
  it('shows moments with a 12-hour time in the given zone', () => {
    expect(formatMoment(new Date('2026-11-23T09:17:00Z'), 'Asia/Kolkata')).toBe('23 Nov 2026, 2:47 pm');
    expect(formatMoment(new Date('2026-11-22T18:35:00Z'), 'Asia/Kolkata')).toBe('23 Nov 2026, 12:05 am');
    expect(formatMoment(null)).toBe('—');
  });
});

describe('formatPhone', () => {
  it('groups Indian numbers as +91 98765 43210', () => {
    expect(formatPhone('9876543210')).toBe('+91 98765 43210');
    expect(formatPhone('919876543210')).toBe('+91 98765 43210');
    expect(formatPhone('+91 98765-43210')).toBe('+91 98765 43210');
  });
  it('groups other international numbers', () => {
    expect(formatPhone('4915123456789')).toBe('+4915123456789');
    expect(formatPhone('')).toBe('');
  });
});

describe('rupees without Intl', () => {
  const intl = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 });

  it('group whole rupees exactly as Intl en-IN does (lakh and crore grouping)', () => {
    for (const n of [0, 7, 99, 999, 1000, 1849, 11999, 100000, 123456, 9999999, 10000000, 123456789]) {
      expect(groupRupees(n)).toBe(n.toLocaleString('en-IN'));
    }
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => groupRupees(n) === n.toLocaleString('en-IN')));
  });

  it('refuse to group what is not a whole number of rupees', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => groupRupees(bad)).toThrow(RangeError);
  });

  it('format amounts as the INR currency format does, rounding half away from zero', () => {
    for (const n of [0, 16499, -500, 1849.5, -1849.5, 0.4, -0.4, 99.99]) expect(formatRupees(n)).toBe(intl.format(n));
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (n) => formatRupees(n / 100) === intl.format(n / 100)));
  });
});
