import { type ExpressionBuilder, sql } from 'kysely';
import type { Database, Db } from '../db/index.js';
import type { ConsultationStatus } from '../db/schema.js';
import { type PageRequest, pagedList } from '../db/paging.js';
import { type BookConsultationInput, CONVERTIBLE, REPEAT_BOOKING_HOURS } from './schema.js';

const repeatWindow = sql`make_interval(hours => ${REPEAT_BOOKING_HOURS})`;

/**
 * Serialises bookings from one e-mail and contact (until the caller's
 * transaction ends), so a double tap cannot store two before either sees the
 * other.
 */
export async function lockBookingsOf(db: Db, email: string, contact: string) {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`booking:${email.trim().toLowerCase()}:${contact}`}, 0))`.execute(db);
}

/** The visitor's own open booking (same e-mail and contact, new or contacted) from the last REPEAT_BOOKING_HOURS, if any. */
export function findOpenRepeat(db: Db, email: string, contact: string) {
  return db
    .selectFrom('consultations')
    .select(['id', 'created_at'])
    .where(sql`lower(email)`, '=', email.trim().toLowerCase())
    .where('contact', '=', contact)
    .where('status', 'in', ['new', 'contacted'])
    .where('created_at', '>', sql<Date>`now() - ${repeatWindow}`)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
}

export function insertConsultation(db: Db, booking: BookConsultationInput) {
  return db
    .insertInto('consultations')
    .values({
      name: booking.name,
      email: booking.email,
      gender: booking.gender,
      age: booking.age,
      height: booking.height,
      weight: booking.weight,
      state: booking.state,
      contact: booking.contact,
      country_id: booking.country,
      is_medical_condition: booking.isMedicalCondition,
      time_zone: booking.tz ?? null,
    })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
}

/** The visitor's own time zone as their browser gave it with the request (null: India time). */
export async function timeZoneOf(db: Db, id: number): Promise<string | null> {
  const row = await db.selectFrom('consultations').select('time_zone').where('id', '=', id).executeTakeFirst();
  return row?.time_zone ?? null;
}

/* The console's side: the bookings inbox. */

const columns = [
  'c.id',
  'c.name',
  'c.email',
  'c.gender',
  'c.age',
  'c.height',
  'c.weight',
  'c.state',
  'c.contact',
  'c.country_id',
  'k.name as country_name',
  'c.is_medical_condition',
  'c.status',
  'c.notes',
  'c.client_id',
  'c.created_at',
  'c.updated_at',
  'c.time_zone',
] as const;

/** The latest earlier booking with the same e-mail or contact within REPEAT_BOOKING_HOURS (along the e-mail and contact indexes). */
const possibleDuplicateOf = (eb: ExpressionBuilder<Database & { c: Database['consultations'] }, 'c'>) =>
  eb
    .selectFrom('consultations as d')
    .select('d.id')
    .where((w) => w.or([w(sql`lower(d.email)`, '=', sql`lower(c.email)`), w('d.contact', '=', w.ref('c.contact'))]))
    .where('d.created_at', '<=', (w) => w.ref('c.created_at'))
    .where('d.created_at', '>', sql<Date>`c.created_at - ${repeatWindow}`)
    .where('d.id', '<', (w) => w.ref('c.id'))
    .orderBy('d.id', 'desc')
    .limit(1)
    .as('possible_duplicate_of');

const base = (db: Db) => db.selectFrom('consultations as c').innerJoin('countries as k', 'k.id', 'c.country_id');

/** A page of bookings, newest first; with a status, along consultations_status_created_idx. */
export function pageBookings(db: Db, input: PageRequest & { status: 'all' | ConsultationStatus }) {
  const filtered = input.status === 'all' ? base(db) : base(db).where('c.status', '=', input.status);
  return pagedList(input, filtered, (q) =>
    q.select(columns).select(possibleDuplicateOf).orderBy('c.created_at', 'desc').orderBy('c.id', 'desc'),
  );
}

export function findBooking(db: Db, id: number) {
  return base(db).select(columns).select(possibleDuplicateOf).where('c.id', '=', id).executeTakeFirst();
}

export function findBookingForUpdate(db: Db, id: number) {
  return db.selectFrom('consultations').select(['id', 'name', 'status', 'notes']).where('id', '=', id).forUpdate().executeTakeFirst();
}

export function updateBooking(db: Db, id: number, values: { status?: ConsultationStatus; notes?: string | null }) {
  return db
    .updateTable('consultations')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/** The picked times of some requests: their appointments (not cancelled) and their holds, at most one of each a request. */
export async function pickedTimesOf(db: Db, ids: number[]) {
  if (ids.length === 0) return { appointments: [], holds: [] };
  const [appointments, holds] = await Promise.all([
    db
      .selectFrom('appointments')
      .select(['consultation_id', 'starts_at', 'status'])
      .where('consultation_id', 'in', ids)
      .where('status', '!=', 'cancelled')
      .orderBy('starts_at', 'desc')
      .execute(),
    db
      .selectFrom('consultation_holds')
      .select(['consultation_id', 'starts_at', 'expires_at', 'status'])
      .where('consultation_id', 'in', ids)
      .execute(),
  ]);
  return { appointments, holds };
}

/** Marks a new or contacted booking converted into the given client; undefined if it is neither. */
export async function markBookingConverted(db: Db, id: number, clientId: number) {
  const before = await findBookingForUpdate(db, id);
  if (!before || !CONVERTIBLE.includes(before.status)) return undefined;
  await updateBookingConverted(db, id, clientId);
  return { id: before.id, name: before.name, previousStatus: before.status };
}

async function updateBookingConverted(db: Db, id: number, clientId: number) {
  await db
    .updateTable('consultations')
    .set({ status: 'converted', client_id: clientId, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
  // The free consultation the visitor booked becomes the new client's appointment.
  await db
    .updateTable('appointments')
    .set({ client_id: clientId, updated_at: new Date() })
    .where('consultation_id', '=', id)
    .where('client_id', 'is', null)
    .execute();
}
