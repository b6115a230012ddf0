import { z } from 'zod';
import { clientProcedure, router } from '../trpc/init.js';
import { todayUtc } from '../validation.js';
import { listSubscriptionsInput, subscription } from './schema.js';
import * as service from './service.js';

export const subscriptionRouter = router({
  active: clientProcedure
    .input(listSubscriptionsInput)
    .output(z.array(subscription))
    .query(({ ctx, input }) => service.listSubscriptions(ctx.deps.db, ctx.user, input, todayUtc(ctx.deps.clock()))),
});
