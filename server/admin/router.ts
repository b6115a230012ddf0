import { appointmentsConsoleRouter } from '../appointments/console.js';
import { callsConsoleRouter } from '../calls/console.js';
import { followUpsConsoleRouter } from '../check-in/console.js';
import { bookingsConsoleRouter } from '../consultation/console.js';
import { dietPlansConsoleRouter } from '../diet-plan/console.js';
import { feedConsoleRouter } from '../feed/console.js';
import { journalConsoleRouter } from '../journal/console.js';
import { messagesConsoleRouter } from '../messages/console.js';
import { paymentsConsoleRouter } from '../payments/console.js';
import { reviewsConsoleRouter } from '../rating/console.js';
import { subscriptionsConsoleRouter } from '../subscription/console.js';
import { supportConsoleRouter } from '../support/console.js';
import { router } from '../trpc/init.js';
import { clientsConsoleRouter } from '../users/console.js';
import { auditRouter } from './audit-log/router.js';
import { outboxRouter } from './outbox/router.js';
import { overviewRouter } from './overview/router.js';

/**
 * The dietitian console, one area per domain. A domain's console procedures
 * live in `server/<domain>/console.ts` beside its client router; this folder
 * keeps only the pages that span domains (overview, audit log, outbox).
 * Every procedure below is an adminProcedure (role 1, checked on the
 * server): tests/integration/admin-guard.test.ts walks this router and checks
 * each one refuses clients and visitors, and server/console-procedures.test.ts
 * that none is declared anywhere else.
 */
export const adminRouter = router({
  overview: overviewRouter,
  clients: clientsConsoleRouter,
  bookings: bookingsConsoleRouter,
  support: supportConsoleRouter,
  reviews: reviewsConsoleRouter,
  subscriptions: subscriptionsConsoleRouter,
  dietPlans: dietPlansConsoleRouter,
  outbox: outboxRouter,
  audit: auditRouter,
  followUps: followUpsConsoleRouter,
  messages: messagesConsoleRouter,
  payments: paymentsConsoleRouter,
  appointments: appointmentsConsoleRouter,
  calls: callsConsoleRouter,
  feed: feedConsoleRouter,
  journal: journalConsoleRouter,
});
