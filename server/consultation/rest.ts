import { defineRoutes } from '../rest/route.js';

export const consultationRoutes = defineRoutes([]);
