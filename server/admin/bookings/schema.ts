import { z } from 'zod';
import { BOOKING_STATUSES, booking } from '../../consultation/schema.js';
import { idField } from '../../validation.js';
import { optionalText, pageInput, pageOf } from '../common.js';

/**
 * Consultation bookings in the console: the list and update inputs. The
 * statuses, their transitions and the shapes returned live in the
 * consultation domain (server/consultation/schema.ts). zod only.
 */

export const listBookingsInput = pageInput.extend({ status: z.enum(['all', ...BOOKING_STATUSES]).default('all') });

export const updateBookingInput = z.object({
  id: idField('id'),
  status: z.enum(BOOKING_STATUSES, { error: `Status must be one of ${BOOKING_STATUSES.join(', ')}` }).optional(),
  notes: optionalText('Notes', 5000, { multiline: true }).optional(),
});

export const bookingPage = pageOf(booking);
