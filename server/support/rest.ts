import { defineRoutes } from '../rest/route.js';

export const supportRoutes = defineRoutes([]);
