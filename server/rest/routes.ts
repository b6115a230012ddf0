import { visitRoutes } from '../visit/rest.js';
import { weightRoutes } from '../weight/rest.js';
import type { RestRoute } from './route.js';

/** Every REST path of the spec (section 7), under /api. */
export const restRoutes: RestRoute[] = [...visitRoutes, ...weightRoutes];
