import { defineRoutes } from '../rest/route.js';

export const countriesRoutes = defineRoutes([]);
