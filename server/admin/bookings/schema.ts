import { z } from 'zod';
import type { ConsultationStatus } from '../../db/schema.js';
import { idField } from '../../validation.js';
import { optionalText, pageInput, pageOf } from '../common.js';

/** Consultation bookings in the console. zod only (the screens import it). */

export const BOOKING_STATUSES = ['new', 'contacted', 'converted', 'closed'] as const satisfies readonly ConsultationStatus[];
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export const BOOKING_STATUS_LABELS: Record<ConsultationStatus, string> = {
  new: 'New',
  contacted: 'Contacted',
  converted: 'Converted',
  closed: 'Closed',
};

/**
 * new → contacted → converted / closed. A closed booking can be reopened as
 * contacted. Converted is reached only by creating the client (admin.clients.create
 * with bookingId), so the booking always points at the account it became.
 */
export const BOOKING_TRANSITIONS: Record<ConsultationStatus, readonly ConsultationStatus[]> = {
  new: ['contacted', 'closed'],
  contacted: ['closed'],
  closed: ['contacted'],
  converted: [],
};
/** States from which a booking can still be converted into a client. */
export const CONVERTIBLE: readonly ConsultationStatus[] = ['new', 'contacted'];

export const listBookingsInput = pageInput.extend({ status: z.enum(['all', ...BOOKING_STATUSES]).default('all') });

export const updateBookingInput = z.object({
  id: idField('id'),
  status: z.enum(BOOKING_STATUSES, { error: `Status must be one of ${BOOKING_STATUSES.join(', ')}` }).optional(),
  notes: optionalText('Notes', 5000, { multiline: true }).optional(),
});

export const booking = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  gender: z.number().int(),
  genderLabel: z.string(),
  age: z.number().int(),
  height: z.string(),
  weight: z.number(),
  state: z.string(),
  contact: z.string(),
  country: z.object({ id: z.number().int(), name: z.string() }),
  isMedicalCondition: z.boolean(),
  status: z.enum(BOOKING_STATUSES),
  notes: z.string().nullable(),
  clientId: z.number().int().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type Booking = z.infer<typeof booking>;
export const bookingPage = pageOf(booking);

/** What "convert" puts in the new-client form; the dietitian checks it before saving. */
export const clientPrefill = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  heightM: z.number().nullable(),
  weightKg: z.number().nullable(),
  conditionNotes: z.string(),
});
export const bookingDetail = booking.extend({ prefill: clientPrefill });
