import { describe, expect, it } from 'vitest';
import { lastActiveLabel } from './last-active';

const now = new Date('2026-11-26T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('lastActiveLabel', () => {
  it('says this device is active now, however long ago it renewed', () => {
    expect(lastActiveLabel(ago(50 * 60_000), true, now)).toBe('Active now');
  });

  it('uses the spec relative style for other devices: just now, minutes, hours, then the date', () => {
    expect(lastActiveLabel(ago(20_000), false, now)).toBe('Active just now');
    expect(lastActiveLabel(ago(5 * 60_000 + 10_000), false, now)).toBe('Active 5m ago');
    expect(lastActiveLabel(ago(3 * 3600_000), false, now)).toBe('Active 3h ago');
    expect(lastActiveLabel(ago(5 * 24 * 3600_000), false, now)).toBe('Active on 21 Nov 2026');
  });

  it('reads the ISO text a REST answer carries', () => {
    expect(lastActiveLabel(ago(2 * 60_000).toISOString(), false, now)).toBe('Active 2m ago');
  });
});
