import { defineRoutes, untrusted } from '../rest/route.js';
import { checkIn, checkInOverview, createCheckInInput, listCheckInsInput } from './schema.js';

export const checkInRoutes = defineRoutes([
  {
    method: 'post',
    path: '/check-ins',
    summary: 'Send a check-in: today’s weight (also recorded in the weight history), adherence 1–5 and notes',
    tag: 'Check-ins',
    auth: 'required',
    clientData: true,
    request: { body: createCheckInInput },
    response: checkIn,
    successStatus: 201,
    handle: async ({ caller, body }) => ({
      status: 201,
      message: 'Check-in sent. Your dietitian will reply soon.',
      data: await caller.checkIn.create(untrusted(body)),
    }),
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
