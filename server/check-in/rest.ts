import { defineRoutes, untrusted } from '../rest/route.js';
import { checkInOverview, createCheckInInput, listCheckInsInput, sentCheckIn } from './schema.js';

export const checkInRoutes = defineRoutes([
  {
    method: 'post',
    path: '/check-ins',
    summary:
      'Send a check-in: today’s weight (also recorded in the weight history), adherence 1–5 and notes. 201 for a new check-in; 200 with the first one (repeated: true) when its clientRequestId was sent before',
    tag: 'Check-ins',
    auth: 'required',
    clientData: true,
    request: { body: createCheckInInput },
    response: sentCheckIn,
    successStatus: 201,
    repeatAnswer: 'The clientRequestId was sent before: the first check-in, with repeated: true; nothing new is stored',
    errors: { 429: 'Too many new check-ins for this client (RATE_LIMIT_CHECK_INS; see Retry-After)' },
    handle: async ({ caller, body }) => {
      const sent = await caller.checkIn.create(untrusted(body));
      return sent.repeated
        ? { status: 200, message: 'This check-in was sent already.', data: sent }
        : { status: 201, message: 'Check-in sent. Your dietitian will reply soon.', data: sent };
    },
  },
  {
    method: 'get',
    path: '/check-ins',
    summary: 'A client’s next due check-in and their check-ins with the dietitian’s replies, newest first',
    tag: 'Check-ins',
    auth: 'required',
    clientData: true,
    request: { query: listCheckInsInput },
    response: checkInOverview,
    handle: async ({ caller, query }) => ({
      message: 'Check-ins loaded',
      data: await caller.checkIn.list(untrusted(query)),
    }),
  },
]);
