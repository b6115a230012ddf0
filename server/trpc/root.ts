import { adminRouter } from '../admin/router.js';
import { appointmentsRouter } from '../appointments/router.js';
import { authRouter } from '../auth/router.js';
import { careRecordRouter } from '../care-record/router.js';
import { callsRouter } from '../calls/router.js';
import { checkInRouter } from '../check-in/router.js';
import { consultationRouter } from '../consultation/router.js';
import { countriesRouter } from '../countries/router.js';
import { dietPlanRouter } from '../diet-plan/router.js';
import { feedRouter } from '../feed/router.js';
import { journalRouter } from '../journal/router.js';
import { messagesRouter } from '../messages/router.js';
import { foodsRouter } from '../nutrition/router.js';
import { nutritionDaysRouter } from '../nutrition/days-router.js';
import { recipesRouter } from '../nutrition/recipes-router.js';
import { targetsRouter } from '../nutrition/targets-router.js';
import { notificationsRouter } from '../notifications/router.js';
import { pushRouter } from '../push/router.js';
import { ratingRouter, testimonialsRouter } from '../rating/router.js';
import { invoiceRouter } from '../payments/router.js';
import { subscriptionRouter } from '../subscription/router.js';
import { supportRouter } from '../support/router.js';
import { visitRouter } from '../visit/router.js';
import { profileRouter } from '../users/router.js';
import { weightRouter } from '../weight/router.js';
import { createCallerFactory, router } from './init.js';

/**
 * The whole API, one router per domain (REST adapters in server/rest/routes.ts).
 */
export const appRouter = router({
  auth: authRouter,
  support: supportRouter,
  consultation: consultationRouter,
  countries: countriesRouter,
  feed: feedRouter,
  rating: ratingRouter,
  dietPlan: dietPlanRouter,
  weight: weightRouter,
  subscription: subscriptionRouter,
  visit: visitRouter,
  profile: profileRouter,
  admin: adminRouter,
  testimonials: testimonialsRouter,
  checkIn: checkInRouter,
  messages: messagesRouter,
  invoice: invoiceRouter,
  push: pushRouter,
  notifications: notificationsRouter,
  appointments: appointmentsRouter,
  journal: journalRouter,
  foods: foodsRouter,
  nutritionDays: nutritionDaysRouter,
  nutritionTargets: targetsRouter,
  recipes: recipesRouter,
  careRecord: careRecordRouter,
  calls: callsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
export type AppCaller = ReturnType<typeof createCaller>;
