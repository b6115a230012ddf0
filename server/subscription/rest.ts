import { z } from 'zod';
import { defineRoutes, untrusted } from '../rest/route.js';
import { listSubscriptionsInput, subscription } from './schema.js';

export const subscriptionRoutes = defineRoutes([
  {
    method: 'get',
    path: '/client/get-subscriptions',
    summary:
      'A client’s subscriptions: running first, then upcoming ones by start date (status "upcoming"), then ended ones, newest first (active=true: running and upcoming only). One paid by invoice carries the invoice’s figures',
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
