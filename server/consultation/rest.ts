import { z } from 'zod';
import { defineRoutes, untrusted } from '../rest/route.js';
import { bookConsultationInput } from './schema.js';

export const consultationRoutes = defineRoutes([
  {
    method: 'post',
    path: '/client/book-consultation',
    summary:
      'Book a consultation with a dietitian (no sign-in needed), optionally at a free slot (`slot`, from GET /api/appointments/slots?kind=consultation, with the visitor’s `tz`): without one it is a callback request. 201 for a new request; 200 with the first request’s id and a message saying it is in hand when the same e-mail and contact booked within the last 24 hours and that request is still open',
    tag: 'Consultation',
    auth: 'optional',
    request: { body: bookConsultationInput },
    response: z.object({ id: z.number().int() }),
    successStatus: 201,
    repeatAnswer:
      'The same e-mail and contact booked within the last 24 hours and that request is still open: its id, and a message saying it is in hand; nothing new is stored',
    errors: {
      409: 'The chosen slot was taken meanwhile: nothing is stored, and data.nextSlots lists the next free slots (or send it without a slot for a callback)',
      429: 'Too many consultation requests from this address or for this email (see Retry-After)',
    },
    handle: async ({ caller, body }) => {
      const booked = await caller.consultation.book(untrusted(body));
      return { status: booked.repeated ? 200 : 201, message: booked.message, data: booked.data };
    },
  },
]);
