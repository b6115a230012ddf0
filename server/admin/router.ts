import { appointmentsConsoleRouter } from '../appointments/router.js';
import { router } from '../trpc/init.js';
import { auditRouter } from './audit-log/router.js';
import { bookingsRouter } from './bookings/router.js';
import { callsAdminRouter } from './calls/router.js';
import { clientsRouter } from './clients/router.js';
import { dietPlansRouter } from './diet-plans/router.js';
import { followUpsRouter } from './follow-ups/router.js';
import { messagesInboxRouter } from './messages/router.js';
import { outboxRouter } from './outbox/router.js';
import { overviewRouter } from './overview/router.js';
import { paymentsRouter } from './payments/router.js';
import { reviewsRouter } from './reviews/router.js';
import { subscriptionsRouter } from './subscriptions/router.js';
import { supportInboxRouter } from './support/router.js';

/**
 * The dietitian console. Every procedure below is an
 * adminProcedure (role 1, checked on the server); tests/integration/admin-guard.test.ts
 * walks this router and checks each one refuses clients and visitors.
 * Feed posts are written through feed.create/update/remove.
 */
export const adminRouter = router({
  overview: overviewRouter,
  clients: clientsRouter,
  bookings: bookingsRouter,
  support: supportInboxRouter,
  reviews: reviewsRouter,
  subscriptions: subscriptionsRouter,
  dietPlans: dietPlansRouter,
  outbox: outboxRouter,
  audit: auditRouter,
  followUps: followUpsRouter,
  messages: messagesInboxRouter,
  payments: paymentsRouter,
  appointments: appointmentsConsoleRouter,
  calls: callsAdminRouter,
});
