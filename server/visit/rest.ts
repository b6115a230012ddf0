import { z } from 'zod';
import { defineRoutes } from '../rest/route.js';

export const visitRoutes = defineRoutes([
  {
    method: 'get',
    path: '/client/track-visit',
    summary: 'Count an anonymous visit (fired once per app load)',
    tag: 'Visits',
    auth: 'optional',
    response: z.object({ day: z.string() }),
    errors: { 429: 'Too many visits counted from this address (see Retry-After)' },
    handle: async ({ caller }) => ({ message: 'Visit recorded', data: await caller.visit.track() }),
  },
]);
