import type { Kysely } from 'kysely';
import { clientToActFor } from '../auth/guards.js';
import { ROLE } from '../auth/roles.js';
import { publicBaseUrl } from '../auth/service.js';
import { fullNameOf, type SessionUser } from '../auth/session.js';
import { planMonths } from '../check-in/service.js';
import type { Db } from '../db/index.js';
import type { AppointmentKind, Database } from '../db/schema.js';
import type { Config } from '../env.js';
import { AppError, badRequest, forbidden, notFound } from '../errors.js';
import { HOLD_MINUTES, MAX_LIVE_HOLDS_PER_EMAIL, MAX_LIVE_HOLDS_PER_IP, mailSafeName } from '../consultation/schema.js';
import { formatMoment } from '../format.js';
import { heldTimeGivenAwayMail } from '../mail/templates.js';
import { type Mail, type Mailer, recordMail } from '../mail/mailer.js';
import { recordNotices, type UserNotice } from '../notifications/notify.js';
import { appointmentIcs, appointmentMail, dietitianMail, type MailAppointment, type MailEvent } from './mails.js';
import { guestCallLink } from '../calls/guest-link.js';
import { publishAppointmentChange, publishHoursChange } from './events.js';
import { sameRequest } from '../db/idempotent.js';
import * as repo from './repo.js';
import {
  type AppointmentView,
  CLIENT_CHANGE_HOURS,
  CLIENT_GRACE_MINUTES,
  CONSULTATION_HORIZON_DAYS,
  type EntitlementView,
  FOLLOW_UP_HORIZON_DAYS,
  MAX_SLOT_RANGE_DAYS,
  periodStartOf,
  type SlotView,
} from './schema.js';
import { type Availability, freeSlots, type Slot, sessionMinutes, wallClock } from './slots.js';
import { addDays, DAY_MS, isoWeekday, mondayOf, SERVICE_TIME_ZONE, serviceDay, serviceInstant } from '../time.js';

/**
 * Appointments (issue 26, decision 119): free slots from each dietitian's
 * availability, booking against the plan's entitlement, moves and
 * cancellations under the 12-hour rule, and the mails (with .ics) that go
 * with each. The database has the last word on double booking: the
 * exclusion constraint appointments_no_overlap refuses a second appointment
 * over a dietitian's time, whatever raced; that refusal answers 409 with the
 * next free slots.
 */

/** `secret` signs a visitor's guest call link in their mails (without it they get the call page's address). */
export type AppointmentDeps = { db: Kysely<Database>; mailer: Mailer; config: Config; clock: () => Date; secret?: string };

const HOUR_MS = 3_600_000;
export const DEFAULT_SETTINGS = { consultationMinutes: 30, followUpMinutes: 30, bufferMinutes: 10, bookable: true };
/** How many next free slots a 409 offers. */
const NEXT_SLOTS = 5;

const APPOINTMENT_MISSING = 'That appointment does not exist.';
const TAKEN = 'That time was just taken. Please pick another; the next free times are listed.';

export const callPathOf = (id: number) => `/call/${id}`;

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
async function candidates(db: Db, kind: AppointmentKind, clientId: number | null): Promise<number[]> {
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
    ...(kind === 'consultation' ? await repo.liveHoldRanges(db, ids, from, to, now) : []),
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

async function takenError(db: Db, ids: number[], kind: AppointmentKind, after: Date, now: Date, tz: string, exceptId?: number) {
  const nextSlots = await nextFree(db, ids, kind, after, now, tz, exceptId);
  return new AppError('CONFLICT', TAKEN, { details: { nextSlots } });
}

/** The slot at exactly `start` among those offered on its India-time day, with who offers it (free or not when `ignoreBusy`). */
async function slotAt(db: Db, ids: number[], kind: AppointmentKind, start: Date, now: Date, exceptId?: number) {
  const day = serviceDay(start);
  const slots = await offered(db, ids, kind, day, addDays(day, 1), now, exceptId);
  return slots.find((s) => s.start.getTime() === start.getTime());
}

/** Whether `start` is on a dietitian's grid at all (as if nothing were booked): else the time was never offered. */
async function everOffered(db: Db, ids: number[], kind: AppointmentKind, start: Date, now: Date) {
  const day = serviceDay(start);
  const all = await availabilities(db, ids, day, addDays(day, 1));
  return all.some((availability) =>
    freeSlots({ availability, busy: [], kind, fromDay: day, toDay: addDays(day, 1), now }).some(
      (s) => s.start.getTime() === start.getTime(),
    ),
  );
}

function checkHorizon(kind: AppointmentKind, start: Date, now: Date, field = 'start') {
  if (start.getTime() <= now.getTime()) throw badRequest('That time has passed. Pick a time ahead.', { [field]: ['That time has passed'] });
  if (start.getTime() > now.getTime() + (horizonDays(kind) + 1) * DAY_MS) {
    const message = `Appointments can be booked up to ${horizonDays(kind)} days ahead`;
    throw badRequest(message, { [field]: [message] });
  }
}

/* Entitlements. */

/** The India-time month holding `day`: [first day, first day of the next). */
const monthOf = (day: string) => {
  const first = `${day.slice(0, 7)}-01`;
  const d = new Date(`${first}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return { first, next: d.toISOString().slice(0, 10) };
};

/** Mondays of the India-time month: a weekly plan's follow-ups "this month" are its weeks that begin in it. */
const mondaysOf = (month: { first: string; next: string }) => {
  const out: string[] = [];
  for (let d = month.first; d < month.next; d = addDays(d, 1)) if (isoWeekday(d) === 1) out.push(d);
  return out;
};

export const FOLLOW_UPS_PER_MONTH_SHORT_PLAN = 2;

/**
 * The FAQ's entitlement: one-month plans include two follow-ups a calendar month, longer plans one a week
 * (India-time Monday to Sunday). "Left this month" counts what is still bookable in the month of `now`.
 */
export async function entitlementOf(db: Db, clientId: number, now: Date, exceptId?: number): Promise<EntitlementView> {
  const today = serviceDay(now);
  const sub = await repo.subscriptionOn(db, clientId, today);
  const none = { period: null, perPeriod: 0, periodStart: null, periodEnd: null, leftThisPeriod: 0, fullPeriods: [] };
  if (!sub) return { rule: 'none', perMonth: 0, leftThisMonth: 0, ...none, planName: null, planEnds: null };
  const month = monthOf(today);
  const period = planMonths(sub) <= 1 ? 'month' : 'week';
  const perPeriod = period === 'month' ? FOLLOW_UPS_PER_MONTH_SHORT_PLAN : 1;
  // Every period a follow-up can be booked in now: from this month's first (or this week's Monday) past the horizon.
  const from = [month.first, mondayOf(today)].sort()[0]!;
  const until = addDays(today, FOLLOW_UP_HORIZON_DAYS + 32);
  const starts = (await repo.followUpStarts(db, clientId, serviceInstant(from, 0), serviceInstant(until, 0), exceptId)).map((r) =>
    serviceDay(r.starts_at),
  );
  const used = new Map<string, number>();
  for (const d of starts) used.set(periodStartOf(d, period), (used.get(periodStartOf(d, period)) ?? 0) + 1);
  const current = periodStartOf(today, period);
  const horizonEnd = addDays(today, FOLLOW_UP_HORIZON_DAYS + 1);
  const fullPeriods = [...used.entries()]
    .filter(([first, n]) => first >= current && first <= horizonEnd && n >= perPeriod)
    .map(([first]) => first)
    .sort();
  const common = {
    period,
    perPeriod,
    periodStart: current,
    periodEnd: period === 'month' ? addDays(month.next, -1) : addDays(current, 6),
    leftThisPeriod: Math.max(0, perPeriod - (used.get(current) ?? 0)),
    fullPeriods,
    planName: sub.plan_name,
    planEnds: sub.end_date,
  } as const;
  if (period === 'month') return { rule: 'monthly', perMonth: perPeriod, leftThisMonth: common.leftThisPeriod, ...common };
  const mondays = mondaysOf(month);
  const open = mondays.filter((m) => m >= current && m <= sub.end_date && !used.has(m));
  return { rule: 'weekly', perMonth: mondays.length, leftThisMonth: open.length, ...common };
}

/** Refuses a follow-up at `start` the client's plan does not include (403 with the reason). */
async function checkEntitlement(db: Db, clientId: number, start: Date, exceptId?: number) {
  const day = serviceDay(start);
  const sub = await repo.subscriptionOn(db, clientId, day);
  if (!sub) throw forbidden('Your plan does not cover that day. Follow-ups are part of a running plan; please renew to book one.');
  if (planMonths(sub) <= 1) {
    const month = monthOf(day);
    const used = await repo.followUpStarts(db, clientId, serviceInstant(month.first, 0), serviceInstant(month.next, 0), exceptId);
    if (used.length >= FOLLOW_UPS_PER_MONTH_SHORT_PLAN)
      throw forbidden(
        `Your plan includes ${FOLLOW_UPS_PER_MONTH_SHORT_PLAN} follow-ups a month, and that month's are booked. Move one of them, or pick a day next month.`,
      );
    return;
  }
  const week = mondayOf(day);
  const used = await repo.followUpStarts(db, clientId, serviceInstant(week, 0), serviceInstant(addDays(week, 7), 0), exceptId);
  if (used.length >= 1)
    throw forbidden('Your plan includes one follow-up a week, and that week’s is booked. Move it, or pick another week.');
}

/* Views. */

export function toMailAppointment(r: repo.AppointmentRow): MailAppointment {
  return {
    id: r.id,
    kind: r.kind,
    start: r.starts_at,
    end: r.ends_at,
    dietitianName: fullNameOf({ first_name: r.dietitian_first, last_name: r.dietitian_last }),
    dietitianEmail: r.dietitian_email,
    sequence: Math.floor(r.updated_at.getTime() / 1000) - 1_700_000_000,
    callPath: callPathOf(r.id),
  };
}

const personOf = (r: repo.AppointmentRow) =>
  r.client_first !== null
    ? {
        name: fullNameOf({ first_name: r.client_first, last_name: r.client_last ?? '' }),
        firstName: r.client_first,
        email: r.client_email ?? '',
      }
    : // A visitor typed their own name: mails print it only when no mail client could make a link of it.
      {
        name: mailSafeName(r.visitor_name ?? '', 'Visitor') || 'Visitor',
        firstName: mailSafeName(r.visitor_name ?? '', '').split(/\s+/)[0] || 'there',
        email: r.visitor_email ?? '',
      };

/**
 * Until when the client may move or cancel: CLIENT_CHANGE_HOURS before the start, or, for a session she booked
 * herself already inside that window (today's), CLIENT_GRACE_MINUTES after its time was set (timed_at: the
 * booking or the last move; created_at is the database's clock, not the service's).
 */
const changeableUntil = (r: repo.AppointmentRow) => {
  const rule = new Date(r.starts_at.getTime() - CLIENT_CHANGE_HOURS * HOUR_MS);
  if (r.client_id === null || r.booked_by !== r.client_id || r.timed_at.getTime() <= rule.getTime()) return rule;
  return new Date(Math.min(r.timed_at.getTime() + CLIENT_GRACE_MINUTES * 60_000, r.starts_at.getTime()));
};

export function toView(r: repo.AppointmentRow, actor: SessionUser | null, tz: string, now: Date): AppointmentView {
  const isDietitian = actor?.role === ROLE.admin;
  const until = changeableUntil(r);
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    start: r.starts_at,
    end: r.ends_at,
    local: wallClock(r.starts_at, tz),
    india: wallClock(r.starts_at, SERVICE_TIME_ZONE),
    dietitianId: r.dietitian_id,
    dietitianName: fullNameOf({ first_name: r.dietitian_first, last_name: r.dietitian_last }),
    clientId: r.client_id,
    consultationId: r.consultation_id,
    personName: personOf(r).name,
    callPath: callPathOf(r.id),
    changeableUntil: until,
    canChange: r.status === 'booked' && (isDietitian || now.getTime() < until.getTime()),
    cancelReason: r.cancel_reason,
    cancelledAt: r.cancelled_at,
  };
}

/** The appointment if the actor may see it: its client, or any dietitian; 404 for anyone else (nothing is revealed). */
export async function appointmentFor(db: Db, actor: SessionUser, id: number) {
  const row = await repo.findAppointment(db, id);
  if (!row || (actor.role !== ROLE.admin && row.client_id !== actor.id)) throw notFound(APPOINTMENT_MISSING);
  return row;
}

/* Telling people. */

type Told = {
  event: Exclude<MailEvent, 'reminder-24h' | 'reminder-1h'>;
  by: 'client' | 'dietitian' | 'visitor';
  tz?: string;
  message?: string | null;
  previousStart?: Date;
};

/**
 * Records the mails (and, for account holders, pushes) of a booking, move or cancellation in the deciding
 * transaction; returns what to run once it commits. The person hears of every change; the dietitian hears
 * of the ones they did not make themselves.
 */
async function recordTelling(trx: Db, deps: AppointmentDeps, r: repo.AppointmentRow, told: Told): Promise<() => void> {
  const publicUrl = publicBaseUrl(deps);
  const a = toMailAppointment(r);
  const person = personOf(r);
  const key = `appointment:${r.id}:${told.event}:${r.updated_at.getTime()}`;
  // A visitor has no account: their mail carries the call's guest link instead of the signed-in call page.
  const guest =
    r.client_id === null && told.event !== 'cancelled' && deps.secret
      ? await guestCallLink(trx, deps.secret, { id: r.id, endsAt: r.ends_at }, { baseUrl: publicUrl, now: deps.clock() })
      : null;
  const mail = appointmentMail({
    event: told.event,
    to: person.email,
    name: person.firstName,
    appointment: a,
    timeZone: told.tz,
    publicUrl,
    message: told.message,
    previousStart: told.previousStart,
    visitor: r.client_id === null,
    callUrl: guest?.url,
  });
  const titles = { booked: 'Appointment booked', moved: 'Appointment moved', cancelled: 'Appointment cancelled' } as const;
  const notices: UserNotice[] = [];
  const loose: Mail[] = [];
  if (r.client_id !== null) {
    notices.push({
      userId: r.client_id,
      category: 'appointments',
      key: `${key}:client`,
      push: { title: titles[told.event], body: `${a.dietitianName}, ${mail.subject.toLowerCase()}`, path: '/dashboard/appointments' },
      mail,
    });
  } else if (person.email) {
    // A visitor has no account (no preferences, no devices): their mail goes to the outbox directly.
    loose.push(mail);
  }
  if (told.by !== 'dietitian') {
    notices.push({
      userId: r.dietitian_id,
      category: 'appointments',
      key: `${key}:dietitian`,
      push: { title: titles[told.event], body: `${person.name}: ${titles[told.event].toLowerCase()}`, path: '/admin/appointments' },
      mail: dietitianMail({
        event: told.event,
        to: r.dietitian_email,
        dietitianName: r.dietitian_first,
        personName: person.name,
        appointment: a,
        publicUrl,
      }),
    });
  }
  const deliverNotices = await recordNotices(trx, deps, notices);
  // Open screens (the client's page, the console's calendar and today's list) hear of it when this commits.
  await publishAppointmentChange(trx, r, told.event);
  const recorded = await Promise.all(loose.map(async (m) => ({ m, at: await recordMail(trx, m) })));
  return () => {
    deliverNotices();
    for (const { m, at } of recorded) deps.mailer.deliverRecorded(at, m);
  };
}

/* Booking. */

type Attempt = { ok: true; row: repo.AppointmentRow; created: boolean; deliver: () => void } | { ok: false; taken: true };

/**
 * Books `start` with one of the dietitians offering it, the first that the database accepts. Each try is
 * its own transaction: when the exclusion constraint refuses it (someone took that time meanwhile), the
 * next dietitian is tried, and when none is left the answer is 409.
 */
async function tryBook(
  deps: AppointmentDeps,
  opts: {
    dietitianIds: number[];
    values: Omit<repo.NewAppointment, 'dietitian_id' | 'ends_at' | 'busy_until'>;
    minutes: (dietitianId: number) => Promise<{ length: number; buffer: number }>;
    before?: (trx: Db) => Promise<repo.AppointmentRow | undefined>;
    told: Omit<Told, 'event'>;
  },
): Promise<Attempt> {
  for (const dietitianId of opts.dietitianIds) {
    const { length, buffer } = await opts.minutes(dietitianId);
    const ends = new Date(opts.values.starts_at.getTime() + length * 60_000);
    try {
      return await deps.db.transaction().execute(async (trx): Promise<Attempt> => {
        const first = await opts.before?.(trx);
        if (first) return { ok: true, row: first, created: false, deliver: () => {} };
        const busyUntil = new Date(ends.getTime() + buffer * 60_000);
        const heldOver = await lockHoldsOver(trx, dietitianId, opts.values.starts_at, busyUntil, deps.clock());
        const inserted = await repo.insertAppointment(trx, {
          ...opts.values,
          dietitian_id: dietitianId,
          ends_at: ends,
          busy_until: busyUntil,
        });
        if (!inserted) {
          const again =
            opts.values.booked_by !== null && opts.values.client_request_id !== null
              ? await repo.findByRequest(trx, opts.values.booked_by, opts.values.client_request_id)
              : undefined;
          const row = again && (await repo.findAppointment(trx, again.id));
          if (!row) throw new AppError('CONFLICT', 'That request changed while it was being repeated. Send it again.');
          return { ok: true, row, created: false, deliver: () => {} };
        }
        const row = (await repo.findAppointment(trx, inserted.id))!;
        const deliver = await recordTelling(trx, deps, row, { ...opts.told, event: 'booked' });
        const deliverReleased = await releaseHolds(trx, deps, heldOver);
        return {
          ok: true,
          row,
          created: true,
          deliver: () => {
            deliver();
            deliverReleased();
          },
        };
      });
    } catch (err) {
      if (repo.isTimeTaken(err)) continue;
      throw err;
    }
  }
  return { ok: false, taken: true };
}

async function minutesOf(db: Db, dietitianId: number, kind: AppointmentKind) {
  const [s] = await repo.settingsOf(db, [dietitianId]);
  const settings = s
    ? { consultationMinutes: s.consultation_minutes, followUpMinutes: s.follow_up_minutes, bufferMinutes: s.buffer_minutes }
    : DEFAULT_SETTINGS;
  return { length: sessionMinutes(settings, kind), buffer: settings.bufferMinutes };
}

/**
 * A client books a follow-up (or a dietitian books one for a client): the time must be one of the slots
 * offered, within the plan's entitlement; repeating the same clientRequestId returns the first booking.
 */
export async function book(
  deps: AppointmentDeps,
  actor: SessionUser,
  input: { start: Date; kind: AppointmentKind; clientRequestId: string; clientId?: number; tz?: string },
) {
  const now = deps.clock();
  const tz = input.tz ?? SERVICE_TIME_ZONE;
  const clientId = await clientToActFor(deps.db, actor, input.clientId, 'clientId');
  /**
   * A repeat carries what the first booking did, or is refused (422). A booking changed since (moved, cancelled)
   * no longer shows what the first request carried: it is answered as it is.
   */
  const sameBooking = (first: repo.AppointmentRow) => {
    if (first.updated_at.getTime() !== first.created_at.getTime()) return;
    sameRequest('clientRequestId', {
      clientId: [first.client_id, clientId],
      kind: [first.kind, input.kind],
      start: [first.starts_at, input.start],
    });
  };
  const repeat = await repo.findByRequest(deps.db, actor.id, input.clientRequestId);
  if (repeat) {
    const first = (await repo.findAppointment(deps.db, repeat.id))!;
    sameBooking(first);
    return { ...toView(first, actor, tz, now), repeated: true };
  }
  if (input.kind === 'consultation' && actor.role !== ROLE.admin) {
    const message = 'A free consultation is booked from the consultation form; as a client, book a follow-up.';
    throw badRequest(message, { kind: [message] });
  }
  checkHorizon(input.kind, input.start, now);
  const ids = await candidates(deps.db, input.kind, clientId);
  const slot = await slotAt(deps.db, ids, input.kind, input.start, now);
  if (!slot) {
    if (!(await everOffered(deps.db, ids, input.kind, input.start, now))) {
      const message = 'That is not one of the offered times. Pick a time from the list of free slots.';
      throw badRequest(message, { start: [message] });
    }
    throw await takenError(deps.db, ids, input.kind, input.start, now, tz);
  }
  const attempt = await tryBook(deps, {
    dietitianIds: slot.dietitianIds,
    values: {
      client_id: clientId,
      consultation_id: null,
      kind: input.kind,
      starts_at: input.start,
      booked_by: actor.id,
      client_request_id: input.clientRequestId,
      timed_at: now,
    },
    minutes: (id) => minutesOf(deps.db, id, input.kind),
    before: async (trx) => {
      // One booking at a time per client: the entitlement is counted and spent under this lock.
      await repo.lockClient(trx, clientId);
      const first = await repo.findByRequest(trx, actor.id, input.clientRequestId);
      if (first) return repo.findAppointment(trx, first.id);
      if (input.kind === 'follow_up') await checkEntitlement(trx, clientId, input.start);
      return undefined;
    },
    told: { by: actor.role === ROLE.admin ? 'dietitian' : 'client', tz },
  });
  if (!attempt.ok) throw await takenError(deps.db, ids, input.kind, input.start, now, tz);
  if (!attempt.created) sameBooking(attempt.row);
  attempt.deliver();
  return { ...toView(attempt.row, actor, tz, now), repeated: !attempt.created };
}

/**
 * Checks a visitor's chosen slot before their consultation request is stored: the dietitians offering
 * it, or 400 (never offered) / 409 with the next free slots (taken).
 */
export async function consultationSlotOffer(deps: AppointmentDeps, start: Date, tz?: string) {
  const now = deps.clock();
  checkHorizon('consultation', start, now, 'slot');
  const ids = await candidates(deps.db, 'consultation', null);
  const slot = await slotAt(deps.db, ids, 'consultation', start, now);
  if (slot) return slot.dietitianIds;
  if (!(await everOffered(deps.db, ids, 'consultation', start, now))) {
    const message = 'That is not one of the offered times. Pick a time from the list, or ask for a callback.';
    throw badRequest(message, { slot: [message] });
  }
  throw await takenError(deps.db, ids, 'consultation', start, now, tz ?? SERVICE_TIME_ZONE);
}

/* Visitors' held times (the rules: HOLD_MINUTES and the caps in consultation/schema.ts). */

/** The dietitian's live holds over [start, busyUntil), locked (with the dietitian's hold lock) before an appointment takes that time. */
async function lockHoldsOver(trx: Db, dietitianId: number, start: Date, busyUntil: Date, now: Date) {
  await repo.lockHoldsOf(trx, dietitianId);
  return repo.lockLiveHoldsOver(trx, dietitianId, start, busyUntil, now);
}

/** A moment as a visitor reads it in a mail: in their zone when known, else India time, with the zone's name. */
export const visitorMoment = (at: Date, tz?: string) => {
  const zone = tz ?? SERVICE_TIME_ZONE;
  return `${formatMoment(at, zone)} (${wallClock(at, zone).zone})`;
};

/** Releases holds whose time a client's appointment took, and tells each visitor (their request stays, as a callback). */
async function releaseHolds(trx: Db, deps: AppointmentDeps, holds: repo.HoldRow[]): Promise<() => void> {
  if (holds.length === 0) return () => {};
  const now = deps.clock();
  const recorded: { m: Mail; at: Awaited<ReturnType<typeof recordMail>> }[] = [];
  for (const h of holds) {
    await repo.settleHold(trx, h.id, { status: 'released', now });
    const m = heldTimeGivenAwayMail({
      to: h.visitor_email,
      name: h.visitor_name,
      bookingId: h.consultation_id,
      when: visitorMoment(h.starts_at),
    });
    recorded.push({ m, at: await recordMail(trx, m) });
  }
  return () => {
    for (const { m, at } of recorded) deps.mailer.deliverRecorded(at, m);
  };
}

export type PlacedHold = { id: number; start: Date; expiresAt: Date };

/**
 * Holds the visitor's chosen time for HOLD_MINUTES inside the transaction that stores their request, with
 * the first offering dietitian whose time is free of appointments and of other live holds. Null when this
 * address or e-mail already has its most live holds (the request then stays a callback request); throws
 * SlotTaken when no offering dietitian is free any more, which rolls back the request too (409).
 */
export async function placeConsultationHold(
  trx: Db,
  deps: AppointmentDeps,
  opts: { consultationId: number; start: Date; dietitianIds: number[]; ip: string; email: string },
): Promise<PlacedHold | null> {
  const now = deps.clock();
  await repo.lockHoldCaps(trx, opts.ip, opts.email);
  const live = await repo.countLiveHolds(trx, opts.ip, opts.email, now);
  if (live.byIp >= MAX_LIVE_HOLDS_PER_IP || live.byEmail >= MAX_LIVE_HOLDS_PER_EMAIL) return null;
  for (const dietitianId of opts.dietitianIds) {
    await repo.lockHoldsOf(trx, dietitianId);
    const { length, buffer } = await minutesOf(trx, dietitianId, 'consultation');
    const ends = new Date(opts.start.getTime() + length * 60_000);
    const busyUntil = new Date(ends.getTime() + buffer * 60_000);
    if ((await repo.busyRanges(trx, [dietitianId], opts.start, busyUntil)).length > 0) continue;
    if ((await repo.liveHoldRanges(trx, [dietitianId], opts.start, busyUntil, now)).length > 0) continue;
    const hold = await repo.insertHold(trx, {
      consultation_id: opts.consultationId,
      dietitian_id: dietitianId,
      starts_at: opts.start,
      ends_at: ends,
      busy_until: busyUntil,
      expires_at: new Date(now.getTime() + HOLD_MINUTES * 60_000),
      requester_ip: opts.ip,
      created_at: now,
    });
    return { id: hold.id, start: opts.start, expiresAt: hold.expires_at };
  }
  throw new SlotTaken();
}

export type HoldOutcome =
  | { outcome: 'confirmed'; appointment: AppointmentView; deliver: () => void }
  | { outcome: 'already'; appointment: AppointmentView | null }
  | { outcome: 'gone'; start: Date }
  | { outcome: 'none' };

/**
 * Turns a held time into the visitor's appointment, in the caller's transaction: the visitor confirming
 * (the link) or a dietitian accepting the request. A hold that expired is still booked when its time is
 * free of appointments and of other live holds; a time taken meanwhile ('gone') leaves the request a
 * callback request. The dietitian's hold lock makes the check and the insert one step against clients'
 * bookings, which take the same lock.
 */
export async function confirmHeldTime(
  trx: Db,
  deps: AppointmentDeps,
  hold: repo.HoldRow | undefined,
  opts: { by: 'visitor' | 'dietitian'; actor: SessionUser | null; tz?: string },
): Promise<HoldOutcome> {
  const now = deps.clock();
  if (!hold) return { outcome: 'none' };
  const view = (row: repo.AppointmentRow) => toView(row, opts.actor, opts.tz ?? SERVICE_TIME_ZONE, now);
  if (hold.status === 'confirmed') {
    const row = hold.appointment_id === null ? undefined : await repo.findAppointment(trx, hold.appointment_id);
    return { outcome: 'already', appointment: row ? view(row) : null };
  }
  if (hold.status === 'released') return { outcome: 'gone', start: hold.starts_at };
  await repo.lockHoldsOf(trx, hold.dietitian_id);
  const taken =
    hold.starts_at.getTime() <= now.getTime() ||
    (await repo.busyRanges(trx, [hold.dietitian_id], hold.starts_at, hold.busy_until)).length > 0 ||
    (await repo.liveHoldRanges(trx, [hold.dietitian_id], hold.starts_at, hold.busy_until, now)).some((h) => h.id !== hold.id);
  if (taken) {
    await repo.settleHold(trx, hold.id, { status: 'released', now });
    return { outcome: 'gone', start: hold.starts_at };
  }
  const inserted = await repo.insertAppointment(trx, {
    client_id: null,
    consultation_id: hold.consultation_id,
    dietitian_id: hold.dietitian_id,
    kind: 'consultation',
    starts_at: hold.starts_at,
    ends_at: hold.ends_at,
    busy_until: hold.busy_until,
    booked_by: opts.by === 'dietitian' ? (opts.actor?.id ?? null) : null,
    client_request_id: null,
    timed_at: now,
  });
  await repo.settleHold(trx, hold.id, { status: 'confirmed', appointmentId: inserted!.id, now });
  const row = (await repo.findAppointment(trx, inserted!.id))!;
  const deliver = await recordTelling(trx, deps, row, { event: 'booked', by: opts.by, tz: opts.tz });
  return { outcome: 'confirmed', appointment: view(row), deliver };
}

/** Releases a request's live hold (the request was closed): its time is free again for visitors. */
export async function releaseHoldOf(trx: Db, deps: AppointmentDeps, consultationId: number) {
  const hold = await repo.lockHoldOfConsultation(trx, consultationId);
  if (hold?.status === 'held') await repo.settleHold(trx, hold.id, { status: 'released', now: deps.clock() });
}

/** Thrown inside a transaction when the chosen slot was taken; the caller answers with consultationTaken(). */
export class SlotTaken extends Error {
  constructor() {
    super('slot taken');
  }
}

/** The 409 for a visitor whose slot was taken meanwhile, with the next free ones. */
export async function consultationTaken(deps: AppointmentDeps, start: Date, tz?: string) {
  const ids = await candidates(deps.db, 'consultation', null);
  return takenError(deps.db, ids, 'consultation', start, deps.clock(), tz ?? SERVICE_TIME_ZONE);
}

/** The rule for changes: a dietitian any time while booked; the client until CLIENT_CHANGE_HOURS before the start. */
function checkMayChange(actor: SessionUser, r: repo.AppointmentRow, now: Date, what: 'move' | 'cancel') {
  if (r.status !== 'booked') {
    throw new AppError(
      'CONFLICT',
      `This appointment is ${r.status === 'no_show' ? 'marked as a no-show' : r.status}; it cannot be changed.`,
    );
  }
  if (actor.role === ROLE.admin) return;
  if (now.getTime() >= changeableUntil(r).getTime()) {
    throw forbidden(
      `Appointments can be ${what === 'move' ? 'moved' : 'cancelled'} until ${CLIENT_CHANGE_HOURS} hours before they start. Please message your dietitian, who can still change it.`,
    );
  }
}

/** Moves an appointment to another offered slot of the same dietitian (the client under the 12-hour rule; a dietitian always). */
export async function reschedule(
  deps: AppointmentDeps,
  actor: SessionUser,
  input: { id: number; start: Date; tz?: string; message?: string | null },
) {
  const now = deps.clock();
  const tz = input.tz ?? SERVICE_TIME_ZONE;
  const before = await appointmentFor(deps.db, actor, input.id);
  checkMayChange(actor, before, now, 'move');
  checkHorizon(before.kind, input.start, now);
  if (input.start.getTime() === before.starts_at.getTime()) return toView(before, actor, tz, now);
  const ids = [before.dietitian_id];
  const slot = await slotAt(deps.db, ids, before.kind, input.start, now, before.id);
  if (!slot) {
    if (!(await everOffered(deps.db, ids, before.kind, input.start, now))) {
      const message = 'That is not one of the offered times. Pick a time from the list of free slots.';
      throw badRequest(message, { start: [message] });
    }
    throw await takenError(deps.db, ids, before.kind, input.start, now, tz, before.id);
  }
  const { length, buffer } = await minutesOf(deps.db, before.dietitian_id, before.kind);
  const ends = new Date(input.start.getTime() + length * 60_000);
  try {
    const { row, deliver } = await deps.db.transaction().execute(async (trx) => {
      if (before.client_id !== null) await repo.lockClient(trx, before.client_id);
      const locked = await repo.lockAppointment(trx, before.id);
      const current = locked && (await repo.findAppointment(trx, before.id));
      if (!current) throw notFound(APPOINTMENT_MISSING);
      checkMayChange(actor, current, now, 'move');
      if (current.kind === 'follow_up' && current.client_id !== null && actor.role !== ROLE.admin)
        await checkEntitlement(trx, current.client_id, input.start, current.id);
      const busyUntil = new Date(ends.getTime() + buffer * 60_000);
      const heldOver = await lockHoldsOver(trx, current.dietitian_id, input.start, busyUntil, now);
      await repo.moveAppointment(trx, current.id, { starts_at: input.start, ends_at: ends, busy_until: busyUntil, now });
      const moved = (await repo.findAppointment(trx, current.id))!;
      const by = actor.role === ROLE.admin ? 'dietitian' : 'client';
      const told = await recordTelling(trx, deps, moved, {
        event: 'moved',
        by,
        tz,
        message: input.message,
        previousStart: current.starts_at,
      });
      const released = await releaseHolds(trx, deps, heldOver);
      return {
        row: moved,
        deliver: () => {
          told();
          released();
        },
      };
    });
    deliver();
    return toView(row, actor, tz, now);
  } catch (err) {
    if (repo.isTimeTaken(err)) throw await takenError(deps.db, ids, before.kind, input.start, now, tz, before.id);
    throw err;
  }
}

/** Cancels an appointment (the client under the 12-hour rule; a dietitian always, with a message to the client). */
export async function cancel(deps: AppointmentDeps, actor: SessionUser, input: { id: number; reason: string | null; tz?: string }) {
  const now = deps.clock();
  const tz = input.tz ?? SERVICE_TIME_ZONE;
  await appointmentFor(deps.db, actor, input.id);
  const { row, deliver } = await deps.db.transaction().execute(async (trx) => {
    await repo.lockAppointment(trx, input.id);
    const current = (await repo.findAppointment(trx, input.id))!;
    checkMayChange(actor, current, now, 'cancel');
    await repo.cancelAppointment(trx, current.id, { by: actor.id, reason: input.reason, now });
    const cancelled = (await repo.findAppointment(trx, current.id))!;
    const by = actor.role === ROLE.admin ? 'dietitian' : 'client';
    return { row: cancelled, deliver: await recordTelling(trx, deps, cancelled, { event: 'cancelled', by, tz, message: input.reason }) };
  });
  deliver();
  return toView(row, actor, tz, now);
}

/** A client's appointments (upcoming first, soonest first; then the past) and what their plan still includes. */
export async function myAppointments(deps: AppointmentDeps, actor: SessionUser, input: { tz?: string; clientId?: number }) {
  const now = deps.clock();
  const tz = input.tz ?? SERVICE_TIME_ZONE;
  const clientId = await clientToActFor(deps.db, actor, input.clientId, 'clientId');
  const [rows, entitlement] = await Promise.all([repo.listForClient(deps.db, clientId), entitlementOf(deps.db, clientId, now)]);
  const views = rows.map((r) => toView(r, actor, tz, now));
  const upcoming = views
    .filter((v) => v.status === 'booked' && v.end.getTime() > now.getTime())
    .sort((a, b) => a.start.getTime() - b.start.getTime());
  const past = views.filter((v) => !upcoming.includes(v));
  return { timeZone: tz, upcoming, past, entitlement };
}

/** The appointment's .ics (a cancellation when it was cancelled), for its client or a dietitian. */
export async function icsOf(deps: AppointmentDeps, actor: SessionUser, id: number) {
  const row = await appointmentFor(deps.db, actor, id);
  const person = personOf(row);
  return appointmentIcs(toMailAppointment(row), {
    cancelled: row.status === 'cancelled',
    publicUrl: publicBaseUrl(deps),
    attendee: person.email ? { name: person.name, email: person.email } : undefined,
  });
}

/* The console. */

/** Every dietitian's appointments on the India-time days [from, from + days). */
export async function calendar(deps: AppointmentDeps, actor: SessionUser, input: { from: string; days: number }) {
  const now = deps.clock();
  const [rows, dietitians] = await Promise.all([
    repo.listInRange(deps.db, serviceInstant(input.from, 0), serviceInstant(addDays(input.from, input.days), 0)),
    repo.listDietitians(deps.db),
  ]);
  return {
    from: input.from,
    days: input.days,
    dietitians: dietitians.map((d) => ({ id: d.id, name: fullNameOf(d) })),
    appointments: rows.map((r) => toView(r, actor, SERVICE_TIME_ZONE, now)),
  };
}

/** Today's appointments (India time) for the overview, cancelled ones left out. */
export async function today(deps: AppointmentDeps, actor: SessionUser) {
  const now = deps.clock();
  const day = serviceDay(now);
  const rows = await repo.listInRange(deps.db, serviceInstant(day, 0), serviceInstant(addDays(day, 1), 0));
  return { day, appointments: rows.filter((r) => r.status !== 'cancelled').map((r) => toView(r, actor, SERVICE_TIME_ZONE, now)) };
}

/** A dietitian marks an appointment done or a no-show, once it has started. */
export async function mark(deps: AppointmentDeps, actor: SessionUser, input: { id: number; status: 'done' | 'no_show' }) {
  const now = deps.clock();
  const row = await appointmentFor(deps.db, actor, input.id);
  if (row.status === 'cancelled') throw new AppError('CONFLICT', 'A cancelled appointment cannot be marked.');
  if (now.getTime() < row.starts_at.getTime()) {
    const message = 'An appointment can be marked done or a no-show once it has started.';
    throw badRequest(message, { status: [message] });
  }
  await deps.db.transaction().execute(async (trx) => {
    await repo.lockAppointment(trx, row.id);
    await repo.setStatus(trx, row.id, input.status, now);
    await publishAppointmentChange(trx, row, 'status');
  });
  return toView((await repo.findAppointment(deps.db, row.id))!, actor, SERVICE_TIME_ZONE, now);
}

/* Availability. */

export async function availabilityOf(db: Db, actor: SessionUser, dietitianId = actor.id) {
  const dietitian = await repo.findDietitian(db, dietitianId);
  if (!dietitian) throw notFound('That dietitian does not exist.', { dietitianId: ['That dietitian does not exist.'] });
  const [[s], weekly, exceptions, dietitians] = await Promise.all([
    repo.settingsOf(db, [dietitianId]),
    repo.weeklyOf(db, [dietitianId]),
    repo.exceptionsOf(db, [dietitianId]),
    repo.listDietitians(db),
  ]);
  return {
    dietitianId,
    dietitianName: fullNameOf(dietitian),
    dietitians: dietitians.map((d) => ({ id: d.id, name: fullNameOf(d) })),
    consultationMinutes: s?.consultation_minutes ?? DEFAULT_SETTINGS.consultationMinutes,
    followUpMinutes: s?.follow_up_minutes ?? DEFAULT_SETTINGS.followUpMinutes,
    bufferMinutes: s?.buffer_minutes ?? DEFAULT_SETTINGS.bufferMinutes,
    // Nothing saved yet: the form starts as taking bookings, which the first save with hours makes true.
    bookable: s?.bookable ?? DEFAULT_SETTINGS.bookable,
    takingBookings: (s?.bookable ?? false) && weekly.some((w) => w.kind === 'hours'),
    weekly: weekly.map((w) => ({ weekday: w.weekday, kind: w.kind, startMinute: w.start_minute, endMinute: w.end_minute })),
    exceptions: exceptions.map((e) => ({ day: e.day, kind: e.kind, startMinute: e.start_minute, endMinute: e.end_minute, note: e.note })),
  };
}

/** The availability form as the rows repo.replaceAvailability stores (the console's save and the demo seed). */
export function availabilityRows(input: import('./schema.js').AvailabilityForm) {
  return {
    settings: {
      consultation_minutes: input.consultationMinutes,
      follow_up_minutes: input.followUpMinutes,
      buffer_minutes: input.bufferMinutes,
      bookable: input.bookable,
    },
    weekly: input.weekly.map((w) => ({ weekday: w.weekday, kind: w.kind, start_minute: w.startMinute, end_minute: w.endMinute })),
    exceptions: input.exceptions.map((e) => ({
      day: e.day,
      kind: e.kind,
      start_minute: e.startMinute,
      end_minute: e.endMinute,
      note: e.note,
    })),
  };
}

/** Saves a dietitian's availability as a whole; booked appointments stay as they are (the dietitian moves them if needed). */
export async function saveAvailability(
  db: Kysely<Database>,
  actor: SessionUser,
  input: import('./schema.js').AvailabilityForm & { dietitianId?: number },
) {
  const dietitianId = input.dietitianId ?? actor.id;
  if (!(await repo.findDietitian(db, dietitianId)))
    throw notFound('That dietitian does not exist.', { dietitianId: ['That dietitian does not exist.'] });
  await db.transaction().execute(async (trx) => {
    await repo.replaceAvailability(trx, dietitianId, availabilityRows(input));
    await publishHoursChange(trx, dietitianId);
  });
  return availabilityOf(db, actor, dietitianId);
}
