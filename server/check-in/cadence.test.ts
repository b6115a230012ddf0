import { describe, expect, it } from 'vitest';
import { checkInSchedule, compareSchedules } from './cadence.js';

const base = { startDate: '2026-11-01', lastCheckIn: null, pauses: [] };

describe('checkInSchedule', () => {
  it('is due every 14 days on a 1-month plan and every 7 on longer plans, from the start', () => {
    expect(checkInSchedule({ ...base, planMonths: 1, today: '2026-11-10' })).toMatchObject({ state: 'upcoming', dueDate: '2026-11-15' });
    expect(checkInSchedule({ ...base, planMonths: 3, today: '2026-11-08' })).toMatchObject({ state: 'due', dueDate: '2026-11-08' });
    expect(checkInSchedule({ ...base, planMonths: 6, today: '2026-11-11' })).toMatchObject({
      state: 'overdue',
      dueDate: '2026-11-08',
      daysOverdue: 3,
    });
  });

  it('counts from the last check-in when there is one', () => {
    expect(checkInSchedule({ ...base, planMonths: 3, lastCheckIn: '2026-11-09', today: '2026-11-12' })).toMatchObject({
      state: 'upcoming',
      dueDate: '2026-11-16',
      daysUntil: 4,
    });
  });

  it('is not due while paused, and a closed pause moves the due date out by the paused days', () => {
    const open = [{ pausedFrom: '2026-11-05', resumedOn: null }];
    expect(checkInSchedule({ ...base, planMonths: 3, pauses: open, today: '2026-11-20' })).toEqual({
      state: 'paused',
      pausedSince: '2026-11-05',
    });
    const closed = [{ pausedFrom: '2026-11-05', resumedOn: '2026-11-09' }];
    expect(checkInSchedule({ ...base, planMonths: 3, pauses: closed, today: '2026-11-10' })).toMatchObject({
      state: 'upcoming',
      dueDate: '2026-11-12',
    });
  });

  it('ignores pauses before the count started and an open pause that begins after the due date', () => {
    const before = [{ pausedFrom: '2026-11-02', resumedOn: '2026-11-04' }];
    expect(checkInSchedule({ ...base, planMonths: 3, lastCheckIn: '2026-11-06', pauses: before, today: '2026-11-06' })).toMatchObject({
      dueDate: '2026-11-13',
    });
    const later = [{ pausedFrom: '2026-11-10', resumedOn: null }];
    expect(checkInSchedule({ ...base, planMonths: 3, pauses: later, today: '2026-11-12' })).toMatchObject({
      state: 'overdue',
      dueDate: '2026-11-08',
    });
  });
});

describe('compareSchedules', () => {
  it('orders overdue, due today, upcoming, paused', () => {
    const list = [
      { state: 'upcoming', dueDate: '2026-11-20', daysOverdue: 0, daysUntil: 5 },
      { state: 'paused', pausedSince: '2026-11-01' },
      { state: 'due', dueDate: '2026-11-15', daysOverdue: 0, daysUntil: 0 },
      { state: 'overdue', dueDate: '2026-11-10', daysOverdue: 5, daysUntil: 0 },
      { state: 'overdue', dueDate: '2026-11-01', daysOverdue: 14, daysUntil: 0 },
    ] as const;
    expect([...list].sort(compareSchedules).map((s) => ('dueDate' in s ? s.dueDate : s.state))).toEqual([
      '2026-11-01',
      '2026-11-10',
      '2026-11-15',
      '2026-11-20',
      'paused',
    ]);
  });
});
