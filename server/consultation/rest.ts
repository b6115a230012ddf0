import { z } from 'zod';
import { defineRoutes, untrusted } from '../rest/route.js';
import { bookConsultationInput, confirmHoldInput, HOLD_MINUTES } from './schema.js';

export const consultationRoutes = defineRoutes([
  {
    method: 'post',
    path: '/client/book-consultation',
    summary: `Book a consultation with a dietitian (no sign-in needed), optionally at a free slot (\`slot\`, from GET /api/appointments/slots?kind=consultation, with the visitor’s \`tz\`): without one it is a callback request. A chosen slot is held for ${HOLD_MINUTES} minutes, not booked: it becomes an appointment when the visitor confirms it with the link mailed to them (POST /api/client/confirm-consultation) or a dietitian accepts the request, and the message says so. An address or e-mail that already has its most unconfirmed held times gets its request taken as a callback request, and the message says that no time was held. 201 for a new request; 200 with the first request’s id and a message saying it is in hand when the same e-mail and contact booked within the last 24 hours and that request is still open`,
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
  {
    method: 'post',
    path: '/client/confirm-consultation',
    summary:
      'Confirm a visitor’s held consultation time with the `hold`, `exp` and `sig` of the link in the booking mail (the link opens a page whose button sends this): the time becomes their appointment and the appointment mail follows. Confirming again answers the same',
    tag: 'Consultation',
    auth: 'optional',
    request: { body: confirmHoldInput },
    response: z.object({ confirmed: z.boolean() }),
    errors: {
      400: 'The link is not valid, or it expired with the hold',
      409: 'The time was booked by someone else before it was confirmed: the request stays a callback request',
    },
    handle: async ({ caller, body }) => {
      const confirmed = await caller.consultation.confirmHold(untrusted(body));
      return { status: 200, message: confirmed.message, data: { confirmed: confirmed.confirmed } };
    },
  },
]);
