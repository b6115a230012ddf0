import type { Kysely } from 'kysely';
import { fullNameOf, type SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import type { Database } from '../db/schema.js';
import { notFound } from '../errors.js';
import { publishHoursChange } from './events.js';
import * as repo from './repo.js';
import { DEFAULT_SETTINGS } from './shared.js';

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
