import { z } from 'zod';
import { adminProcedure, router } from '../trpc/init.js';
import { byId, messageResult, todayUtc } from '../validation.js';
import { assignAdminInput, listSubscriptionsAdminInput, renewAdminInput, subscriptionPage } from './schema.js';
import * as service from './service.js';

const created = messageResult.extend({ id: z.number().int() });

/** The console's subscriptions: every client's plans, assigning, ending and renewing one. */
export const subscriptionsConsoleRouter = router({
  list: adminProcedure
    .input(listSubscriptionsAdminInput)
    .output(subscriptionPage)
    .query(({ ctx, input }) => service.listAllSubscriptions(ctx.deps.db, input, todayUtc(ctx.deps.clock()))),
  assign: adminProcedure
    .input(assignAdminInput)
    .output(created)
    .mutation(({ ctx, input }) => service.assignPlan(ctx.deps, ctx.user, input)),
  expire: adminProcedure
    .input(byId)
    .output(messageResult)
    .mutation(({ ctx, input }) => service.expireSubscription(ctx.deps.db, ctx.user, input, todayUtc(ctx.deps.clock()))),
  renew: adminProcedure
    .input(renewAdminInput)
    .output(created)
    .mutation(({ ctx, input }) => service.renewSubscription(ctx.deps, ctx.user, input, todayUtc(ctx.deps.clock()))),
});
