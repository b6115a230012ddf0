import { type ExpressionBuilder, sql } from 'kysely';
import { ROLE } from '../auth/roles.js';
import type { Db } from '../db/index.js';
import type { AppointmentKind, AppointmentStatus, Database } from '../db/schema.js';

/* Availability. */

/** Dietitians (active admin accounts), by name. */
export function listDietitians(db: Db) {
  return db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email'])
    .where('role', '=', ROLE.admin)
    .where('is_active', '=', true)
    .orderBy('first_name')
    .orderBy('id')
    .execute();
}

export function findDietitian(db: Db, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email'])
    .where('id', '=', id)
    .where('role', '=', ROLE.admin)
    .where('is_active', '=', true)
    .executeTakeFirst();
}

/** Dietitians who take bookings: active, marked bookable, with some weekly hours. */
export function bookableDietitianIds(db: Db) {
  return db
    .selectFrom('availability_settings as s')
    .innerJoin('users as u', 'u.id', 's.dietitian_id')
    .select('s.dietitian_id')
    .where('s.bookable', '=', true)
    .where('u.is_active', '=', true)
    .where('u.role', '=', ROLE.admin)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('availability_weekly as w')
          .select('w.id')
          .whereRef('w.dietitian_id', '=', 's.dietitian_id')
          .where('w.kind', '=', 'hours'),
      ),
    )
    .orderBy('s.dietitian_id')
    .execute();
}

export function settingsOf(db: Db, dietitianIds: number[]) {
  if (dietitianIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('availability_settings').selectAll().where('dietitian_id', 'in', dietitianIds).execute();
}

export function weeklyOf(db: Db, dietitianIds: number[]) {
  if (dietitianIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('availability_weekly')
    .select(['dietitian_id', 'weekday', 'kind', 'start_minute', 'end_minute'])
    .where('dietitian_id', 'in', dietitianIds)
    .orderBy('weekday')
    .orderBy('start_minute')
    .orderBy('id')
    .execute();
}

/** One-off changes on India-time days [fromDay, toDay); all of them when no range is given (the settings screen). */
export function exceptionsOf(db: Db, dietitianIds: number[], range?: { fromDay: string; toDay: string }) {
  if (dietitianIds.length === 0) return Promise.resolve([]);
  let q = db
    .selectFrom('availability_exceptions')
    .select(['dietitian_id', 'day', 'kind', 'start_minute', 'end_minute', 'note'])
    .where('dietitian_id', 'in', dietitianIds);
  if (range) q = q.where('day', '>=', range.fromDay).where('day', '<', range.toDay);
  return q.orderBy('day').orderBy('start_minute').orderBy('id').execute();
}

/** Replaces a dietitian's whole availability (settings, weekly rows, one-off changes) in the caller's transaction. */
export async function replaceAvailability(
  trx: Db,
  dietitianId: number,
  a: {
    settings: { consultation_minutes: number; follow_up_minutes: number; buffer_minutes: number; bookable: boolean };
    weekly: { weekday: number; kind: 'hours' | 'break'; start_minute: number; end_minute: number }[];
    exceptions: { day: string; kind: 'off' | 'open'; start_minute: number | null; end_minute: number | null; note: string | null }[];
  },
) {
  await trx
    .insertInto('availability_settings')
    .values({ dietitian_id: dietitianId, ...a.settings, updated_at: new Date() })
    .onConflict((oc) => oc.column('dietitian_id').doUpdateSet({ ...a.settings, updated_at: new Date() }))
    .execute();
  await trx.deleteFrom('availability_weekly').where('dietitian_id', '=', dietitianId).execute();
  if (a.weekly.length > 0)
    await trx
      .insertInto('availability_weekly')
      .values(a.weekly.map((w) => ({ ...w, dietitian_id: dietitianId })))
      .execute();
  await trx.deleteFrom('availability_exceptions').where('dietitian_id', '=', dietitianId).execute();
  if (a.exceptions.length > 0)
    await trx
      .insertInto('availability_exceptions')
      .values(a.exceptions.map((e) => ({ ...e, dietitian_id: dietitianId })))
      .execute();
}

/* Appointments. */

/** The live (not cancelled) appointments of these dietitians that overlap [from, to), as the ranges they keep busy. */
export function busyRanges(db: Db, dietitianIds: number[], from: Date, to: Date, exceptId?: number) {
  if (dietitianIds.length === 0) return Promise.resolve([]);
  let q = db
    .selectFrom('appointments')
    .select(['id', 'dietitian_id', 'starts_at', 'busy_until'])
    .where('dietitian_id', 'in', dietitianIds)
    .where('status', '<>', 'cancelled')
    .where('starts_at', '<', to)
    .where('busy_until', '>', from);
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return q.execute();
}

/** The dietitian a client's conversation names as theirs, if any. */
export async function primaryDietitianOf(db: Db, clientId: number) {
  const row = await db.selectFrom('conversations').select('primary_dietitian_id').where('client_id', '=', clientId).executeTakeFirst();
  return row?.primary_dietitian_id ?? null;
}

/** Serialises one client's bookings (the entitlement is counted, then spent, under this lock). */
export function lockClient(trx: Db, clientId: number) {
  return trx.selectFrom('users').select('id').where('id', '=', clientId).forUpdate().executeTakeFirst();
}

/** The client's subscription running on an India-time day (newest first), with its dates. */
export function subscriptionOn(db: Db, clientId: number, day: string) {
  return db
    .selectFrom('subscriptions')
    .select(['id', 'plan_type', 'plan_id', 'plan_name', 'start_date', 'end_date'])
    .where('client_id', '=', clientId)
    .where('cancelled_at', 'is', null)
    .where('start_date', '<=', day)
    .where('end_date', '>=', day)
    .orderBy('start_date', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** Start times of a client's follow-ups that count against the plan (not cancelled) in [from, to). */
export function followUpStarts(db: Db, clientId: number, from: Date, to: Date, exceptId?: number) {
  let q = db
    .selectFrom('appointments')
    .select(['id', 'starts_at'])
    .where('client_id', '=', clientId)
    .where('kind', '=', 'follow_up')
    .where('status', '<>', 'cancelled')
    .where('starts_at', '>=', from)
    .where('starts_at', '<', to);
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return q.execute();
}

export type NewAppointment = {
  client_id: number | null;
  consultation_id: number | null;
  dietitian_id: number;
  kind: AppointmentKind;
  starts_at: Date;
  ends_at: Date;
  busy_until: Date;
  booked_by: number | null;
  client_request_id: string | null;
  timed_at: Date;
};

/**
 * Inserts an appointment; undefined when its (booked_by, client_request_id) was used already. The
 * exclusion constraint raises 23P01 when its time is taken: run it where that failure ends the attempt.
 */
export function insertAppointment(trx: Db, values: NewAppointment) {
  return trx
    .insertInto('appointments')
    .values(values)
    .onConflict((oc) => oc.columns(['booked_by', 'client_request_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
}

export function findByRequest(db: Db, bookedBy: number, clientRequestId: string) {
  return db
    .selectFrom('appointments')
    .select('id')
    .where('booked_by', '=', bookedBy)
    .where('client_request_id', '=', clientRequestId)
    .executeTakeFirst();
}

const withNames = (db: Db) =>
  db
    .selectFrom('appointments as a')
    .innerJoin('users as d', 'd.id', 'a.dietitian_id')
    .leftJoin('users as c', 'c.id', 'a.client_id')
    .leftJoin('consultations as v', 'v.id', 'a.consultation_id')
    .select([
      'a.id',
      'a.client_id',
      'a.consultation_id',
      'a.dietitian_id',
      'a.kind',
      'a.starts_at',
      'a.ends_at',
      'a.busy_until',
      'a.status',
      'a.timed_at',
      'a.booked_by',
      'a.cancel_reason',
      'a.cancelled_at',
      'a.created_at',
      'a.updated_at',
      'd.first_name as dietitian_first',
      'd.last_name as dietitian_last',
      'd.email as dietitian_email',
      'c.first_name as client_first',
      'c.last_name as client_last',
      'c.email as client_email',
      'v.name as visitor_name',
      'v.email as visitor_email',
    ]);

export type AppointmentRow = NonNullable<Awaited<ReturnType<typeof findAppointment>>>;

export function findAppointment(db: Db, id: number) {
  return withNames(db).where('a.id', '=', id).executeTakeFirst();
}

/** Locks the appointment's row for a change (move, cancel, mark). */
export function lockAppointment(trx: Db, id: number) {
  return trx.selectFrom('appointments').select(['id', 'status', 'client_id']).where('id', '=', id).forUpdate().executeTakeFirst();
}

export function listForClient(db: Db, clientId: number) {
  return withNames(db).where('a.client_id', '=', clientId).orderBy('a.starts_at', 'desc').orderBy('a.id', 'desc').limit(200).execute();
}

/** Every dietitian's appointments starting in [from, to), cancelled ones included (the console shows them struck through). */
export function listInRange(db: Db, from: Date, to: Date) {
  return withNames(db).where('a.starts_at', '>=', from).where('a.starts_at', '<', to).orderBy('a.starts_at').orderBy('a.id').execute();
}

/** Moves an appointment; raises 23P01 when the new time is taken. */
export function moveAppointment(trx: Db, id: number, t: { starts_at: Date; ends_at: Date; busy_until: Date; now: Date }) {
  return trx
    .updateTable('appointments')
    .set({ starts_at: t.starts_at, ends_at: t.ends_at, busy_until: t.busy_until, timed_at: t.now, updated_at: t.now })
    .where('id', '=', id)
    .execute();
}

export function cancelAppointment(trx: Db, id: number, c: { by: number; reason: string | null; now: Date }) {
  return trx
    .updateTable('appointments')
    .set({ status: 'cancelled', cancelled_by: c.by, cancel_reason: c.reason, cancelled_at: c.now, updated_at: c.now })
    .where('id', '=', id)
    .execute();
}

export function setStatus(trx: Db, id: number, status: AppointmentStatus, now: Date) {
  return trx.updateTable('appointments').set({ status, updated_at: now }).where('id', '=', id).execute();
}

/* Reminders. */

/** Booked appointments starting in (now, until], with whom to remind. */
export function bookedStartingBetween(db: Db, now: Date, until: Date) {
  return withNames(db)
    .where('a.status', '=', 'booked')
    .where('a.starts_at', '>', now)
    .where('a.starts_at', '<=', until)
    .orderBy('a.starts_at')
    .orderBy('a.id')
    .execute();
}

/** Claims one reminder of one start time; undefined when it was claimed (sent) before. */
export function claimReminder(trx: Db, appointmentId: number, which: '24h' | '1h', startsAt: Date) {
  return trx
    .insertInto('appointment_reminders')
    .values({ appointment_id: appointmentId, which, starts_at: startsAt })
    .onConflict((oc) => oc.doNothing())
    .returning('appointment_id')
    .executeTakeFirst();
}

export function remindersOf(db: Db, appointmentId: number) {
  return db
    .selectFrom('appointment_reminders')
    .select(['which', 'starts_at', 'sent_at'])
    .where('appointment_id', '=', appointmentId)
    .orderBy('sent_at')
    .execute();
}

/** The overview's figure: today's booked appointments (India-time day [from, to)). */
export async function countBookedBetween(db: Db, from: Date, to: Date) {
  const row = await db
    .selectFrom('appointments')
    .select((eb: ExpressionBuilder<Database, 'appointments'>) => eb.fn.countAll().as('n'))
    .where('status', '=', 'booked')
    .where('starts_at', '>=', from)
    .where('starts_at', '<', to)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Whether an error is the no-overlap exclusion constraint refusing a time that is taken. */
export const isTimeTaken = (err: unknown) =>
  (err as { code?: string })?.code === '23P01' || String((err as Error)?.message ?? '').includes('appointments_no_overlap');

/* Live. */

/** NOTIFY on the appointments channel (ids only), in the caller's transaction: it fires when that commits. */
export async function notifyAppointments(trx: Db, channel: string, payload: string) {
  await sql`select pg_notify(${channel}, ${payload})`.execute(trx);
}
