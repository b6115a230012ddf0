import { z } from 'zod';
import { publicProcedure, router } from '../trpc/init.js';
import { recordVisit } from './service.js';

export const visitRouter = router({
  track: publicProcedure.output(z.object({ day: z.string() })).mutation(({ ctx }) => recordVisit(ctx.deps, ctx.meta)),
});
