import { describe, expect, it } from 'vitest';
import { formatDay, formatMoment, formatPhone } from './format.js';

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
