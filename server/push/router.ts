import { authedProcedure, publicProcedure, router } from '../trpc/init.js';
import { publicKeyOutput, subscribeInput, subscribedOutput, unsubscribeInput, unsubscribedOutput } from './schema.js';
import * as service from './service.js';

/** Web push: the key browsers subscribe with, and this device's subscription. */
export const pushRouter = router({
  publicKey: publicProcedure.output(publicKeyOutput).query(({ ctx }) => ({ publicKey: ctx.deps.vapid.publicKey })),
  subscribe: authedProcedure
    .input(subscribeInput)
    .output(subscribedOutput)
    .mutation(({ ctx, input }) => service.subscribe(ctx.deps.db, ctx.deps.config.push, ctx.user, input)),
  unsubscribe: authedProcedure
    .input(unsubscribeInput)
    .output(unsubscribedOutput)
    .mutation(({ ctx, input }) => service.unsubscribe(ctx.deps.db, ctx.user, input)),
});
