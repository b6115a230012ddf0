import { defineRoutes } from '../rest/route.js';

export const ratingRoutes = defineRoutes([]);
