import { clientToActFor } from '../auth/guards.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import type { AppointmentKind } from '../db/schema.js';
import { AppError, badRequest } from '../errors.js';
import * as holdsRepo from './holds-repo.js';
import * as repo from './repo.js';
import { CONSULTATION_HORIZON_DAYS, FOLLOW_UP_HORIZON_DAYS, MAX_SLOT_RANGE_DAYS, type SlotView } from './schema.js';
import { type Availability, freeSlots, type Slot, sessionMinutes, wallClock } from './slots.js';
import { addDays, DAY_MS, SERVICE_TIME_ZONE, serviceDay, serviceInstant } from '../time.js';
import { type AppointmentDeps, DEFAULT_SETTINGS, NEXT_SLOTS, TAKEN } from './shared.js';

/**
 * The free times offered: each dietitian's availability less what is booked or held, merged across the
 * dietitians who may take the session, and the 409 that names the next free ones when a time was taken.
 */

/* Slots. */

async function availabilities(db: Db, ids: number[], fromDay: string, toDay: string): Promise<Availability[]> {
  const [settings, weekly, exceptions] = await Promise.all([
    repo.settingsOf(db, ids),
    repo.weeklyOf(db, ids),
    repo.exceptionsOf(db, ids, { fromDay, toDay }),
  ]);
  return ids.map((id) => {
    const s = settings.find((r) => r.dietitian_id === id);
    return {
      dietitianId: id,
      settings: s
        ? { consultationMinutes: s.consultation_minutes, followUpMinutes: s.follow_up_minutes, bufferMinutes: s.buffer_minutes }
        : DEFAULT_SETTINGS,
      weekly: weekly
        .filter((w) => w.dietitian_id === id)
        .map((w) => ({ weekday: w.weekday, kind: w.kind, startMinute: w.start_minute, endMinute: w.end_minute })),
      exceptions: exceptions
        .filter((e) => e.dietitian_id === id)
        .map((e) => ({ day: e.day, kind: e.kind, startMinute: e.start_minute, endMinute: e.end_minute })),
    };
  });
}

/** Who can take this booking: a client's own dietitian when they take bookings, else every bookable dietitian. */
export async function candidates(db: Db, kind: AppointmentKind, clientId: number | null): Promise<number[]> {
  const bookable = (await repo.bookableDietitianIds(db)).map((r) => r.dietitian_id);
  if (kind === 'follow_up' && clientId !== null) {
    const own = await repo.primaryDietitianOf(db, clientId);
    if (own !== null && bookable.includes(own)) return [own];
  }
  return bookable;
}

type OfferedSlot = Slot & { dietitianIds: number[] };

/** Free slots of any of the dietitians on India-time days [fromDay, toDay), one per start time, in order. */
async function offered(
  db: Db,
  ids: number[],
  kind: AppointmentKind,
  fromDay: string,
  toDay: string,
  now: Date,
  exceptId?: number,
): Promise<OfferedSlot[]> {
  if (ids.length === 0) return [];
  const all = await availabilities(db, ids, fromDay, toDay);
  const [from, to] = [serviceInstant(fromDay, 0), serviceInstant(toDay, 0)];
  const busy = [
    ...(await repo.busyRanges(db, ids, from, to, exceptId)),
    // A visitor's unconfirmed held time is kept from other visitors; clients may still book it.
    ...(kind === 'consultation' ? await holdsRepo.liveHoldRanges(db, ids, from, to, now) : []),
  ];
  const byStart = new Map<number, OfferedSlot>();
  for (const availability of all) {
    const mine = busy.filter((b) => b.dietitian_id === availability.dietitianId).map((b) => ({ start: b.starts_at, end: b.busy_until }));
    for (const slot of freeSlots({ availability, busy: mine, kind, fromDay, toDay, now })) {
      const key = slot.start.getTime();
      const seen = byStart.get(key);
      if (seen) seen.dietitianIds.push(availability.dietitianId);
      else byStart.set(key, { ...slot, dietitianIds: [availability.dietitianId] });
    }
  }
  return [...byStart.values()].sort((a, b) => a.start.getTime() - b.start.getTime());
}

const slotView = (s: Slot, tz: string): SlotView => ({
  start: s.start,
  end: s.end,
  local: wallClock(s.start, tz),
  india: wallClock(s.start, SERVICE_TIME_ZONE),
});

const horizonDays = (kind: AppointmentKind) => (kind === 'consultation' ? CONSULTATION_HORIZON_DAYS : FOLLOW_UP_HORIZON_DAYS);

function rangeStart(value: string | undefined, now: Date): Date {
  if (!value) return now;
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? serviceInstant(value, 0) : new Date(value);
}

/**
 * Free slots between `from` and `to` (India-time days or instants; default the next 14 days), never
 * beyond the kind's horizon: free consultations for anyone, follow-ups for a signed-in client (or a
 * dietitian naming one).
 */
export async function listSlots(
  deps: AppointmentDeps,
  actor: SessionUser | null,
  input: { from?: string; to?: string; kind: AppointmentKind; tz?: string; clientId?: number },
) {
  const now = deps.clock();
  const tz = input.tz ?? SERVICE_TIME_ZONE;
  let clientId: number | null = null;
  if (input.kind === 'follow_up') {
    if (!actor) throw new AppError('UNAUTHORIZED', 'Sign in to see follow-up times.');
    clientId = await clientToActFor(deps.db, actor, input.clientId, 'clientId');
  }
  const from = rangeStart(input.from, now);
  const to = input.to ? rangeStart(input.to, now) : new Date(from.getTime() + CONSULTATION_HORIZON_DAYS * DAY_MS);
  if (to.getTime() <= from.getTime()) throw badRequest('to must be after from', { to: ['to must be after from'] });
  if (to.getTime() - from.getTime() > MAX_SLOT_RANGE_DAYS * DAY_MS) {
    const message = `Ask for at most ${MAX_SLOT_RANGE_DAYS} days of slots at a time`;
    throw badRequest(message, { to: [message] });
  }
  const until = Math.min(to.getTime(), now.getTime() + horizonDays(input.kind) * DAY_MS);
  const ids = await candidates(deps.db, input.kind, clientId);
  const slots =
    until <= from.getTime() ? [] : await offered(deps.db, ids, input.kind, serviceDay(from), addDays(serviceDay(new Date(until)), 1), now);
  const minutes = await lengthOf(deps.db, ids, input.kind);
  return {
    kind: input.kind,
    timeZone: tz,
    minutes,
    slots: slots.filter((s) => s.start.getTime() >= from.getTime() && s.start.getTime() < until).map((s) => slotView(s, tz)),
  };
}

async function lengthOf(db: Db, ids: number[], kind: AppointmentKind) {
  const [first] = await repo.settingsOf(db, ids.slice(0, 1));
  return first ? (kind === 'consultation' ? first.consultation_minutes : first.follow_up_minutes) : sessionMinutes(DEFAULT_SETTINGS, kind);
}

async function nextFree(db: Db, ids: number[], kind: AppointmentKind, after: Date, now: Date, tz: string, exceptId?: number) {
  const fromDay = serviceDay(after.getTime() > now.getTime() ? after : now);
  const slots = await offered(db, ids, kind, fromDay, addDays(fromDay, horizonDays(kind) + 1), now, exceptId);
  return slots
    .filter((s) => s.start.getTime() >= after.getTime())
    .slice(0, NEXT_SLOTS)
    .map((s) => slotView(s, tz));
}

export async function takenError(db: Db, ids: number[], kind: AppointmentKind, after: Date, now: Date, tz: string, exceptId?: number) {
  const nextSlots = await nextFree(db, ids, kind, after, now, tz, exceptId);
  return new AppError('CONFLICT', TAKEN, { details: { nextSlots } });
}

/** The slot at exactly `start` among those offered on its India-time day, with who offers it (free or not when `ignoreBusy`). */
export async function slotAt(db: Db, ids: number[], kind: AppointmentKind, start: Date, now: Date, exceptId?: number) {
  const day = serviceDay(start);
  const slots = await offered(db, ids, kind, day, addDays(day, 1), now, exceptId);
  return slots.find((s) => s.start.getTime() === start.getTime());
}

/** Whether `start` is on a dietitian's grid at all (as if nothing were booked): else the time was never offered. */
export async function everOffered(db: Db, ids: number[], kind: AppointmentKind, start: Date, now: Date) {
  const day = serviceDay(start);
  const all = await availabilities(db, ids, day, addDays(day, 1));
  return all.some((availability) =>
    freeSlots({ availability, busy: [], kind, fromDay: day, toDay: addDays(day, 1), now }).some(
      (s) => s.start.getTime() === start.getTime(),
    ),
  );
}

export function checkHorizon(kind: AppointmentKind, start: Date, now: Date, field = 'start') {
  if (start.getTime() <= now.getTime()) throw badRequest('That time has passed. Pick a time ahead.', { [field]: ['That time has passed'] });
  if (start.getTime() > now.getTime() + (horizonDays(kind) + 1) * DAY_MS) {
    const message = `Appointments can be booked up to ${horizonDays(kind)} days ahead`;
    throw badRequest(message, { [field]: [message] });
  }
}

export async function minutesOf(db: Db, dietitianId: number, kind: AppointmentKind) {
  const [s] = await repo.settingsOf(db, [dietitianId]);
  const settings = s
    ? { consultationMinutes: s.consultation_minutes, followUpMinutes: s.follow_up_minutes, bufferMinutes: s.buffer_minutes }
    : DEFAULT_SETTINGS;
  return { length: sessionMinutes(settings, kind), buffer: settings.bufferMinutes };
}
