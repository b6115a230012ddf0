import { z } from 'zod';
import { defineRoutes, untrusted } from '../rest/route.js';
import { appointmentView, bookedAppointment, bookInput, cancelInput, myAppointmentsView, slotsInput, slotsView } from './schema.js';

const idParams = z.object({ id: z.string().describe('The appointment’s id') });
const TAKEN_409 = 'The time was taken meanwhile (two bookings never share a dietitian’s time): data.nextSlots lists the next free slots';
const NOT_YOURS_404 = 'There is no such appointment, or it is not the signed-in client’s';

export const appointmentRoutes = defineRoutes([
  {
    method: 'get',
    path: '/appointments/slots',
    summary:
      'Free slots between from and to (India-time days YYYY-MM-DD or instants; default the next 14 days), each with its time in the ' +
      'viewer’s time zone (tz, an IANA name) and in India time. kind=consultation (a visitor’s free consultation, up to 14 days ahead) ' +
      'needs no sign-in; kind=follow_up (a client’s, up to 28 days ahead) does',
    tag: 'Appointments',
    auth: 'optional',
    request: { query: slotsInput },
    response: slotsView,
    errors: {
      401: 'kind=follow_up without a bearer token',
      403: 'A client naming another client’s id',
      404: 'A dietitian naming a client who does not exist',
    },
    handle: async ({ caller, query }) => ({ message: 'Free slots', data: await caller.appointments.slots(untrusted(query)) }),
  },
  {
    method: 'post',
    path: '/appointments',
    summary:
      'Book a follow-up at one of the offered slots, within the plan’s entitlement (twice a month on one-month plans, one a week on longer ones). ' +
      '201 for a new booking; 200 with the first booking (repeated: true) when the clientRequestId was sent before',
    tag: 'Appointments',
    auth: 'required',
    clientData: true,
    request: { body: bookInput },
    response: bookedAppointment,
    successStatus: 201,
    repeatAnswer: 'The clientRequestId was sent before: the first booking, with repeated: true; nothing new is stored',
    errors: {
      400: 'The start is not one of the offered times, has passed, or is beyond the booking horizon',
      403: 'The plan does not include another follow-up in that month or week, or no plan runs on that day',
      409: TAKEN_409,
    },
    handle: async ({ caller, body }) => {
      const booked = await caller.appointments.book(untrusted(body));
      return booked.repeated
        ? { status: 200, message: 'This booking was made already.', data: booked }
        : { status: 201, message: 'Your appointment is booked. A calendar invitation is on its way by e-mail.', data: booked };
    },
  },
  {
    method: 'get',
    path: '/appointments',
    summary:
      'The signed-in client’s appointments (upcoming, soonest first; then past and cancelled) and how many follow-ups are left this month',
    tag: 'Appointments',
    auth: 'required',
    clientData: true,
    request: { query: z.object({ tz: z.string().optional(), clientId: z.string().optional() }) },
    response: myAppointmentsView,
    handle: async ({ caller, query }) => ({ message: 'Appointments loaded', data: await caller.appointments.list(untrusted(query)) }),
  },
  {
    method: 'post',
    path: '/appointments/:id/reschedule',
    summary:
      'Move an appointment to another offered slot of the same dietitian: a client until 12 hours before the start, a dietitian any time',
    tag: 'Appointments',
    auth: 'required',
    request: { params: idParams, body: z.object({ start: z.string(), tz: z.string().optional() }) },
    response: appointmentView,
    errors: {
      400: 'The start is not one of the offered times, has passed, or is beyond the booking horizon',
      403: 'Less than 12 hours before the start (only the dietitian can move it now), or the plan does not include that week or month',
      404: NOT_YOURS_404,
      409: `${TAKEN_409}; or the appointment is cancelled or over`,
    },
    handle: async ({ caller, params, body }) => ({
      message: 'Appointment moved. A new calendar invitation is on its way.',
      data: await caller.appointments.reschedule(untrusted({ ...(body as object), id: params.id })),
    }),
  },
  {
    method: 'post',
    path: '/appointments/:id/cancel',
    summary: 'Cancel an appointment: a client until 12 hours before the start, a dietitian any time. The time is free again',
    tag: 'Appointments',
    auth: 'required',
    request: { params: idParams, body: cancelInput.omit({ id: true }) },
    response: appointmentView,
    errors: {
      403: 'Less than 12 hours before the start: only the dietitian can cancel it now',
      404: NOT_YOURS_404,
      409: 'The appointment is cancelled already, or over',
    },
    handle: async ({ caller, params, body }) => ({
      message: 'Appointment cancelled.',
      data: await caller.appointments.cancel(untrusted({ ...(body as object), id: params.id })),
    }),
  },
  {
    method: 'get',
    path: '/appointments/:id/ics',
    summary: 'The appointment as an iCalendar (.ics) file: an invitation, or a cancellation once it is cancelled',
    tag: 'Appointments',
    auth: 'required',
    request: { params: idParams },
    download: { contentTypes: ['text/calendar'] },
    errors: { 404: NOT_YOURS_404 },
    handle: async ({ caller, params }) => {
      const file = await caller.appointments.ics(untrusted({ id: params.id }));
      return {
        message: 'Calendar file',
        response: new Response(file.content, {
          status: 200,
          headers: {
            'Content-Type': 'text/calendar; charset=utf-8',
            'Content-Disposition': `attachment; filename="${file.filename}"`,
            'Cache-Control': 'private, no-store',
            'X-Content-Type-Options': 'nosniff',
          },
        }),
      };
    },
  },
]);
