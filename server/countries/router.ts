import { z } from 'zod';
import { publicProcedure, router } from '../trpc/init.js';
import { country } from './schema.js';
import * as service from './service.js';

export const countriesRouter = router({
  list: publicProcedure.output(z.array(country)).query(({ ctx }) => service.listCountries(ctx.deps.db)),
});
