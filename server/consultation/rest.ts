import { z } from 'zod';
import { defineRoutes, untrusted } from '../rest/route.js';
import { bookConsultationInput } from './schema.js';

export const consultationRoutes = defineRoutes([
  {
    method: 'post',
    path: '/client/book-consultation',
    summary: 'Book a consultation with a dietitian (no sign-in needed)',
    tag: 'Consultation',
    auth: 'optional',
    request: { body: bookConsultationInput },
    response: z.object({ id: z.number().int() }),
    successStatus: 201,
    errors: { 429: 'Too many consultation requests from this address or for this email (see Retry-After)' },
    handle: async ({ caller, body }) => {
      const booked = await caller.consultation.book(untrusted(body));
      return { status: 201, message: booked.message, data: booked.data };
    },
  },
]);
