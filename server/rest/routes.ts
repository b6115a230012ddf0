import { appointmentRoutes } from '../appointments/rest.js';
import { attachmentRoutes } from '../attachments/rest.js';
import { authRoutes } from '../auth/rest.js';
import { careRecordRoutes } from '../care-record/rest.js';
import { checkInRoutes } from '../check-in/rest.js';
import { consultationRoutes } from '../consultation/rest.js';
import { countriesRoutes } from '../countries/rest.js';
import { dietPlanRoutes } from '../diet-plan/rest.js';
import { feedRoutes } from '../feed/rest.js';
import { messageRoutes } from '../messages/rest.js';
import { notificationRoutes } from '../notifications/rest.js';
import { pushRoutes } from '../push/rest.js';
import { journalRoutes } from '../journal/rest.js';
import { foodRoutes } from '../nutrition/rest.js';
import { nutritionDaysRoutes } from '../nutrition/days-rest.js';
import { recipeRoutes } from '../nutrition/recipes-rest.js';
import { nutritionTargetsRoutes } from '../nutrition/targets-rest.js';
import { invoiceRoutes } from '../payments/rest.js';
import { ratingRoutes } from '../rating/rest.js';
import { subscriptionRoutes } from '../subscription/rest.js';
import { supportRoutes } from '../support/rest.js';
import { visitRoutes } from '../visit/rest.js';
import { weightRoutes } from '../weight/rest.js';
import { profileRoutes } from '../users/rest.js';
import type { RestRoute } from './route.js';

/** Every REST path the product exposes, under /api. */
export const restRoutes: RestRoute[] = [
  ...authRoutes,
  ...supportRoutes,
  ...consultationRoutes,
  ...countriesRoutes,
  ...feedRoutes,
  ...ratingRoutes,
  ...dietPlanRoutes,
  ...weightRoutes,
  ...subscriptionRoutes,
  ...visitRoutes,
  ...checkInRoutes,
  ...profileRoutes,
  ...messageRoutes,
  ...attachmentRoutes,
  ...invoiceRoutes,
  ...pushRoutes,
  ...notificationRoutes,
  ...appointmentRoutes,
  ...journalRoutes,
  ...foodRoutes,
  ...nutritionDaysRoutes,
  ...nutritionTargetsRoutes,
  ...recipeRoutes,
  ...careRecordRoutes,
];
