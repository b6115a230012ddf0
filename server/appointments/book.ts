import { clientToActFor } from '../auth/guards.js';
import { ROLE } from '../auth/roles.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import type { AppointmentKind } from '../db/schema.js';
import { AppError, badRequest } from '../errors.js';
import { sameRequest } from '../db/idempotent.js';
import * as repo from './repo.js';
import { SERVICE_TIME_ZONE } from '../time.js';
import { checkEntitlement } from './entitlement.js';
import { lockHoldsOver, releaseHolds } from './holds.js';
import { candidates, checkHorizon, everOffered, minutesOf, slotAt, takenError } from './offer.js';
import type { AppointmentDeps } from './shared.js';
import { type Told, recordTelling } from './telling.js';
import { toView } from './views.js';

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
