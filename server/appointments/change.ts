import { ROLE } from '../auth/roles.js';
import type { SessionUser } from '../auth/session.js';
import { AppError, badRequest, forbidden, notFound } from '../errors.js';
import { publishAppointmentChange } from './events.js';
import * as repo from './repo.js';
import { CLIENT_CHANGE_HOURS } from './schema.js';
import { SERVICE_TIME_ZONE } from '../time.js';
import { checkEntitlement } from './entitlement.js';
import { lockHoldsOver, releaseHolds } from './holds.js';
import { checkHorizon, everOffered, minutesOf, slotAt, takenError } from './offer.js';
import { APPOINTMENT_MISSING, type AppointmentDeps } from './shared.js';
import { recordTelling } from './telling.js';
import { appointmentFor, changeableUntil, toView } from './views.js';

/* Changes: a move, a cancellation, and the outcome a dietitian marks once a session has started. */

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
