import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativePath, repoRoot, sourcesUnder } from '../tests/helpers/source-files.js';
import {
  addDays,
  DAY_MS,
  dayIn,
  daysBetween,
  isoWeekday,
  mondayOf,
  monthRange,
  serviceDay,
  serviceInstant,
  serviceMinute,
} from './time.js';

/**
 * Service time has one home, server/time.ts: the zone's name, its offset and the day's length are
 * written there and imported everywhere else, so "today in India" cannot be reckoned two ways.
 */
const home = path.join(repoRoot, 'server', 'time.ts');

const rules: { what: string; pattern: RegExp }[] = [
  { what: "the service's time zone written out", pattern: /['"`]Asia\/(Kolkata|Calcutta)['"`]/ },
  { what: "India's offset written as minutes (330 *)", pattern: /\b330 \*/ },
  { what: 'a day in milliseconds written again (import DAY_MS)', pattern: /\bconst DAY_MS\b|\b86_?400_?000\b/ },
];

describe('service time lives in server/time.ts', () => {
  it('no other server or client source writes the zone, its offset or DAY_MS', () => {
    const found: string[] = [];
    for (const file of [...sourcesUnder(path.join(repoRoot, 'server')), ...sourcesUnder(path.join(repoRoot, 'src'))]) {
      if (file === home) continue;
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const rule of rules) if (rule.pattern.test(line)) found.push(`${relativePath(repoRoot, file)}:${i + 1}: ${rule.what}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('reckons days and minutes in India time', () => {
    // 18:29 UTC is 23:59 in India; a minute later it is the next day there.
    expect(serviceDay(new Date('2026-11-27T18:29:00Z'))).toBe('2026-11-27');
    expect(serviceDay(new Date('2026-11-27T18:30:00Z'))).toBe('2026-11-28');
    expect(dayIn(new Date('2026-11-27T18:30:00Z'))).toBe('2026-11-28');
    expect(dayIn(new Date('2026-11-27T18:30:00Z'), 'Europe/London')).toBe('2026-11-27');
    expect(serviceMinute(new Date('2026-11-27T18:30:00Z'))).toBe(0);
    expect(serviceMinute(new Date('2026-11-28T04:00:00Z'))).toBe(9 * 60 + 30);
    expect(serviceInstant('2026-11-28', 10 * 60).toISOString()).toBe('2026-11-28T04:30:00.000Z');
    expect(serviceInstant('2026-11-28').toISOString()).toBe('2026-11-27T18:30:00.000Z');
  });

  it('moves and compares calendar days', () => {
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(daysBetween('2026-11-01', '2026-12-01')).toBe(30);
    expect(daysBetween('2026-12-01', '2026-11-01')).toBe(-30);
    expect(isoWeekday('2026-11-29')).toBe(7); // a Sunday
    expect(isoWeekday('2026-11-30')).toBe(1);
    expect(mondayOf('2026-11-29')).toBe('2026-11-23');
    expect(mondayOf('2026-11-30')).toBe('2026-11-30');
    expect(DAY_MS).toBe(24 * 60 * 60 * 1000);
  });

  it('gives a month in India as instants, across a year end', () => {
    expect(monthRange('2026-12-15')).toEqual({ start: new Date('2026-11-30T18:30:00Z'), end: new Date('2026-12-31T18:30:00Z') });
    expect(monthRange('2026-02-01').end).toEqual(new Date('2026-02-28T18:30:00Z'));
  });
});
