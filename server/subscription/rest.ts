import { z } from 'zod';
import { defineRoutes, untrusted } from '../rest/route.js';
import { listSubscriptionsInput, subscription } from './schema.js';

export const subscriptionRoutes = defineRoutes([
  {
    method: 'get',
    path: '/client/get-subscriptions',
    summary: 'A client’s subscriptions, newest first (active=true: only those still running)',
    tag: 'Subscriptions',
    auth: 'required',
    clientData: true,
    request: { query: listSubscriptionsInput },
    response: z.array(subscription),
    handle: async ({ caller, query }) => ({
      message: 'Subscriptions loaded',
      data: await caller.subscription.active(untrusted(query)),
    }),
  },
]);
