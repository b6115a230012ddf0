import { defineRoutes, untrusted } from '../rest/route.js';
import { supportRequestInput } from './schema.js';

export const supportRoutes = defineRoutes([
  {
    method: 'post',
    path: '/support/create-support-request',
    summary: 'Send a message to the support team (name and email are required when not signed in)',
    tag: 'Support',
    auth: 'optional',
    request: { body: supportRequestInput },
    errors: { 429: 'Too many support requests from this address or for this email (see Retry-After)' },
    handle: async ({ caller, body }) => caller.support.create(untrusted(body)),
  },
]);
