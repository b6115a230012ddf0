import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { badRequest } from '../errors.js';
import { HOLD_MINUTES, MAX_LIVE_HOLDS_PER_EMAIL, MAX_LIVE_HOLDS_PER_IP } from '../consultation/schema.js';
import { formatMoment } from '../format.js';
import { heldTimeGivenAwayMail } from '../mail/templates.js';
import { type Mail, recordMail } from '../mail/mailer.js';
import * as holdsRepo from './holds-repo.js';
import * as repo from './repo.js';
import type { AppointmentView } from './schema.js';
import { wallClock } from './slots.js';
import { SERVICE_TIME_ZONE } from '../time.js';
import { candidates, checkHorizon, everOffered, minutesOf, slotAt, takenError } from './offer.js';
import type { AppointmentDeps } from './shared.js';
import { recordTelling } from './telling.js';
import { toView } from './views.js';

/* Visitors' held times (the rules: HOLD_MINUTES and the caps in consultation/schema.ts). */

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
export async function lockHoldsOver(trx: Db, dietitianId: number, start: Date, busyUntil: Date, now: Date) {
  await holdsRepo.lockHoldsOf(trx, dietitianId);
  return holdsRepo.lockLiveHoldsOver(trx, dietitianId, start, busyUntil, now);
}

/** A moment as a visitor reads it in a mail: in their zone when known, else India time, with the zone's name. */
export const visitorMoment = (at: Date, tz?: string) => {
  const zone = tz ?? SERVICE_TIME_ZONE;
  return `${formatMoment(at, zone)} (${wallClock(at, zone).zone})`;
};

/** Releases holds whose time a client's appointment took, and tells each visitor (their request stays, as a callback). */
export async function releaseHolds(trx: Db, deps: AppointmentDeps, holds: holdsRepo.HoldRow[]): Promise<() => void> {
  if (holds.length === 0) return () => {};
  const now = deps.clock();
  const recorded: { m: Mail; at: Awaited<ReturnType<typeof recordMail>> }[] = [];
  for (const h of holds) {
    await holdsRepo.settleHold(trx, h.id, { status: 'released', now });
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
  await holdsRepo.lockHoldCaps(trx, opts.ip, opts.email);
  const live = await holdsRepo.countLiveHolds(trx, opts.ip, opts.email, now);
  if (live.byIp >= MAX_LIVE_HOLDS_PER_IP || live.byEmail >= MAX_LIVE_HOLDS_PER_EMAIL) return null;
  for (const dietitianId of opts.dietitianIds) {
    await holdsRepo.lockHoldsOf(trx, dietitianId);
    const { length, buffer } = await minutesOf(trx, dietitianId, 'consultation');
    const ends = new Date(opts.start.getTime() + length * 60_000);
    const busyUntil = new Date(ends.getTime() + buffer * 60_000);
    if ((await repo.busyRanges(trx, [dietitianId], opts.start, busyUntil)).length > 0) continue;
    if ((await holdsRepo.liveHoldRanges(trx, [dietitianId], opts.start, busyUntil, now)).length > 0) continue;
    const hold = await holdsRepo.insertHold(trx, {
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
  hold: holdsRepo.HoldRow | undefined,
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
  await holdsRepo.lockHoldsOf(trx, hold.dietitian_id);
  const taken =
    hold.starts_at.getTime() <= now.getTime() ||
    (await repo.busyRanges(trx, [hold.dietitian_id], hold.starts_at, hold.busy_until)).length > 0 ||
    (await holdsRepo.liveHoldRanges(trx, [hold.dietitian_id], hold.starts_at, hold.busy_until, now)).some((h) => h.id !== hold.id);
  if (taken) {
    await holdsRepo.settleHold(trx, hold.id, { status: 'released', now });
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
  await holdsRepo.settleHold(trx, hold.id, { status: 'confirmed', appointmentId: inserted!.id, now });
  const row = (await repo.findAppointment(trx, inserted!.id))!;
  const deliver = await recordTelling(trx, deps, row, { event: 'booked', by: opts.by, tz: opts.tz });
  return { outcome: 'confirmed', appointment: view(row), deliver };
}

/** Releases a request's live hold (the request was closed): its time is free again for visitors. */
export async function releaseHoldOf(trx: Db, deps: AppointmentDeps, consultationId: number) {
  const hold = await holdsRepo.lockHoldOfConsultation(trx, consultationId);
  if (hold?.status === 'held') await holdsRepo.settleHold(trx, hold.id, { status: 'released', now: deps.clock() });
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
