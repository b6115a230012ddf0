import type { Db } from '../db/index.js';
import type { BookConsultationInput } from './schema.js';

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
