import type { Db } from '../db/index.js';
import type { ConsultationStatus } from '../db/schema.js';
import { type PageRequest, pagedList } from '../db/paging.js';
import { type BookConsultationInput, CONVERTIBLE } from './schema.js';

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
    })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
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
] as const;

const base = (db: Db) => db.selectFrom('consultations as c').innerJoin('countries as k', 'k.id', 'c.country_id');

/** A page of bookings, newest first; with a status, along consultations_status_created_idx. */
export function pageBookings(db: Db, input: PageRequest & { status: 'all' | ConsultationStatus }) {
  const filtered = input.status === 'all' ? base(db) : base(db).where('c.status', '=', input.status);
  return pagedList(input, filtered, (q) => q.select(columns).orderBy('c.created_at', 'desc').orderBy('c.id', 'desc'));
}

export function findBooking(db: Db, id: number) {
  return base(db).select(columns).where('c.id', '=', id).executeTakeFirst();
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

/** Marks a new or contacted booking converted into the given client; undefined if it is neither. */
export async function markBookingConverted(db: Db, id: number, clientId: number) {
  const before = await findBookingForUpdate(db, id);
  if (!before || !CONVERTIBLE.includes(before.status)) return undefined;
  await updateBookingConverted(db, id, clientId);
  return { id: before.id, name: before.name, previousStatus: before.status };
}

function updateBookingConverted(db: Db, id: number, clientId: number) {
  return db
    .updateTable('consultations')
    .set({ status: 'converted', client_id: clientId, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}
