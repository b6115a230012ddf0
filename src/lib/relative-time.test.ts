import { describe, expect, it } from 'vitest';
import { fullDateTime, relativeTime } from './relative-time';

const now = new Date('2026-11-22T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('relativeTime', () => {
  it('says just now under one minute', () => {
    expect(relativeTime(ago(0), now)).toBe('just now');
    expect(relativeTime(ago(59_999), now)).toBe('just now');
  });

  it('counts whole minutes from one minute to under an hour', () => {
    expect(relativeTime(ago(60_000), now)).toBe('1m');
    expect(relativeTime(ago(5 * 60_000 + 30_000), now)).toBe('5m');
    expect(relativeTime(ago(60 * 60_000 - 1), now)).toBe('59m');
  });

  it('counts whole hours from one hour to under a day', () => {
    expect(relativeTime(ago(60 * 60_000), now)).toBe('1h');
    expect(relativeTime(ago(23 * 3600_000 + 59 * 60_000), now)).toBe('23h');
  });

  it('shows the date (21 Nov 2026) from 24 hours on', () => {
    expect(relativeTime(ago(24 * 3600_000), now)).toBe('21 Nov 2026');
  });

  it('accepts ISO strings and epoch numbers as well as dates', () => {
    expect(relativeTime(ago(3 * 60_000).toISOString(), now)).toBe('3m');
    expect(relativeTime(ago(2 * 3600_000).getTime(), now)).toBe('2h');
  });

  it("says 'Invalid date' for a missing or unreadable date", () => {
    expect(relativeTime(null, now)).toBe('Invalid date');
    expect(relativeTime(undefined, now)).toBe('Invalid date');
    expect(relativeTime('', now)).toBe('Invalid date');
    expect(relativeTime('not a date', now)).toBe('Invalid date');
  });

  it('treats a moment slightly in the future (clock skew) as just now', () => {
    expect(relativeTime(new Date(now.getTime() + 30_000), now)).toBe('just now');
  });
});

describe('fullDateTime', () => {
  it('is null for a missing date and text otherwise', () => {
    expect(fullDateTime(null)).toBeNull();
    expect(fullDateTime(now)).toMatch(/^22 Nov 2026, \d{1,2}:\d{2} [ap]m$/);
  });
});
