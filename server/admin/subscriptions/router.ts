import { z } from 'zod';
import { adminProcedure, router } from '../../trpc/init.js';
import { byId, messageResult } from '../common.js';
import { assignAdminInput, listSubscriptionsAdminInput, renewAdminInput, subscriptionPage } from './schema.js';
import * as service from './service.js';

const created = messageResult.extend({ id: z.number().int() });

export const subscriptionsRouter = router({
  list: adminProcedure
    .input(listSubscriptionsAdminInput)
    .output(subscriptionPage)
    .query(({ ctx, input }) => service.listSubscriptions(ctx.deps.db, input)),
  assign: adminProcedure
    .input(assignAdminInput)
    .output(created)
    .mutation(({ ctx, input }) => service.assign(ctx.deps, ctx.user, input)),
  expire: adminProcedure
    .input(byId)
    .output(messageResult)
    .mutation(({ ctx, input }) => service.expire(ctx.deps.db, ctx.user, input.id)),
  renew: adminProcedure
    .input(renewAdminInput)
    .output(created)
    .mutation(({ ctx, input }) => service.renew(ctx.deps, ctx.user, input)),
});
