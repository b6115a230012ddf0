import { defineRoutes } from '../rest/route.js';

export const authRoutes = defineRoutes([]);
