/**
 * Free slots from a dietitian's availability (decision 119). Availability is
 * kept in India time (the clinic's clock, no daylight saving: always UTC+5:30),
 * as minutes from midnight of an India-time day; slots leave here as instants,
 * and each person sees them in their own time zone beside India time.
 *
 * Pure functions: no database, no clock (the caller passes `now`).
 */
import type { AppointmentKind } from '../db/schema.js';
import { addDays, isoWeekday, MINUTE_MS, serviceInstant } from '../time.js';

/** A slot must start at least this long after now (time to prepare; no booking for a minute from now). */
export const MIN_NOTICE_MINUTES = 60;

export type Window = { start: number; end: number };
export type WeeklyRule = { weekday: number; kind: 'hours' | 'break'; startMinute: number; endMinute: number };
export type DayException = { day: string; kind: 'off' | 'open'; startMinute: number | null; endMinute: number | null };
export type SessionSettings = { consultationMinutes: number; followUpMinutes: number; bufferMinutes: number };
export type Availability = { dietitianId: number; settings: SessionSettings; weekly: WeeklyRule[]; exceptions: DayException[] };
/** A time a dietitian is taken: [start, end), the end including that appointment's buffer. */
export type Busy = { start: Date; end: Date };
export type Slot = { start: Date; end: Date };

export const sessionMinutes = (settings: SessionSettings, kind: AppointmentKind) =>
  kind === 'consultation' ? settings.consultationMinutes : settings.followUpMinutes;

function subtract(windows: Window[], cut: Window): Window[] {
  const out: Window[] = [];
  for (const w of windows) {
    if (cut.end <= w.start || cut.start >= w.end) {
      out.push(w);
      continue;
    }
    if (cut.start > w.start) out.push({ start: w.start, end: cut.start });
    if (cut.end < w.end) out.push({ start: cut.end, end: w.end });
  }
  return out;
}

function merge(windows: Window[]): Window[] {
  const sorted = [...windows].sort((a, b) => a.start - b.start);
  const out: Window[] = [];
  for (const w of sorted) {
    const last = out[out.length - 1];
    if (last && w.start <= last.end) last.end = Math.max(last.end, w.end);
    else out.push({ ...w });
  }
  return out;
}

/**
 * The open windows of one India-time day, in minutes: the weekday's hours less its breaks, then the
 * day's one-off changes (a whole day off closes everything; an 'off' window closes part; an 'open'
 * window opens beyond the weekly hours).
 */
export function windowsOn(day: string, weekly: WeeklyRule[], exceptions: DayException[]): Window[] {
  const weekday = isoWeekday(day);
  const rules = weekly.filter((r) => r.weekday === weekday);
  let open = merge(rules.filter((r) => r.kind === 'hours').map((r) => ({ start: r.startMinute, end: r.endMinute })));
  for (const b of rules.filter((r) => r.kind === 'break')) open = subtract(open, { start: b.startMinute, end: b.endMinute });
  const today = exceptions.filter((e) => e.day === day);
  open = merge([...open, ...today.filter((e) => e.kind === 'open').map((e) => ({ start: e.startMinute ?? 0, end: e.endMinute ?? 0 }))]);
  for (const off of today.filter((e) => e.kind === 'off')) {
    open = off.startMinute === null || off.endMinute === null ? [] : subtract(open, { start: off.startMinute, end: off.endMinute });
  }
  return open.filter((w) => w.end > w.start);
}

const overlaps = (a: { start: Date; end: Date }, b: Busy) => a.start.getTime() < b.end.getTime() && b.start.getTime() < a.end.getTime();

/**
 * Free slots of one dietitian on the India-time days [fromDay, toDay): starting at each window's start,
 * one session plus the buffer apart; a slot must fit its session inside the window, start at least
 * MIN_NOTICE_MINUTES after now, and keep its session and buffer clear of every busy range (exactly what
 * the database's exclusion constraint checks).
 */
export function freeSlots(opts: {
  availability: Availability;
  busy: Busy[];
  kind: AppointmentKind;
  fromDay: string;
  toDay: string;
  now: Date;
}): Slot[] {
  const { settings, weekly, exceptions } = opts.availability;
  const length = sessionMinutes(settings, opts.kind);
  const step = length + settings.bufferMinutes;
  const earliest = opts.now.getTime() + MIN_NOTICE_MINUTES * MINUTE_MS;
  const slots: Slot[] = [];
  for (let day = opts.fromDay; day < opts.toDay; day = addDays(day, 1)) {
    for (const w of windowsOn(day, weekly, exceptions)) {
      for (let m = w.start; m + length <= w.end; m += step) {
        const start = serviceInstant(day, m);
        if (start.getTime() < earliest) continue;
        const end = new Date(start.getTime() + length * MINUTE_MS);
        const held = { start, end: new Date(end.getTime() + settings.bufferMinutes * MINUTE_MS) };
        if (opts.busy.some((b) => overlaps(held, b))) continue;
        slots.push({ start, end });
      }
    }
  }
  return slots;
}

/** A moment as a person reads it in a time zone: the day, the time (24-hour) and the zone's short name. */
export function wallClock(at: Date, timeZone: string): { date: string; time: string; zone: string } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return { date: `${part('year')}-${part('month')}-${part('day')}`, time: `${part('hour')}:${part('minute')}`, zone: part('timeZoneName') };
}

/** Whether the runtime knows this IANA time zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
