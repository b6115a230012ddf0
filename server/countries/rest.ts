import { z } from 'zod';
import { defineRoutes } from '../rest/route.js';
import { COUNTRIES_MAX_AGE_SECONDS, country } from './schema.js';

export const countriesRoutes = defineRoutes([
  {
    method: 'get',
    path: '/countries',
    summary: 'Every ISO 3166-1 country (id = numeric code), sorted by name',
    tag: 'Countries',
    auth: 'none',
    response: z.array(country),
    handle: async ({ caller, c }) => {
      const data = await caller.countries.list();
      // Reference data: the same for everyone, so shared caches may keep it too.
      c.header('Cache-Control', `public, max-age=${COUNTRIES_MAX_AGE_SECONDS}, stale-while-revalidate=${COUNTRIES_MAX_AGE_SECONDS}`);
      return { message: 'Countries loaded', data };
    },
  },
]);
