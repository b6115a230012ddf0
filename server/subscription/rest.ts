import { defineRoutes } from '../rest/route.js';

export const subscriptionRoutes = defineRoutes([]);
