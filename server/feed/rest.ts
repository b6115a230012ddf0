import { defineRoutes } from '../rest/route.js';

export const feedRoutes = defineRoutes([]);
