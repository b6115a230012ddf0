import { defineRoutes } from '../rest/route.js';

export const dietPlanRoutes = defineRoutes([]);
