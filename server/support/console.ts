import { adminProcedure, router } from '../trpc/init.js';
import { messageResult } from '../validation.js';
import { listSupportInput, replySupportInput, setSupportStatusInput, supportPage } from './schema.js';
import * as service from './service.js';

/** The console's support inbox: the requests, a reply, open or answered. */
export const supportConsoleRouter = router({
  list: adminProcedure
    .input(listSupportInput)
    .output(supportPage)
    .query(({ ctx, input }) => service.listSupportRequests(ctx.deps.db, input)),
  reply: adminProcedure
    .input(replySupportInput)
    .output(messageResult)
    .mutation(({ ctx, input }) => service.replyToSupportRequest(ctx.deps, ctx.user, input)),
  setStatus: adminProcedure
    .input(setSupportStatusInput)
    .output(messageResult)
    .mutation(({ ctx, input }) => service.setSupportStatus(ctx.deps.db, ctx.user, input)),
});
