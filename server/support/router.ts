import { TRPCError } from '@trpc/server';
import { publicProcedure, router } from '../trpc/init.js';
import { supportFormSignedIn, supportFormSignedOut, supportRequestInput, supportRequestResult } from './schema.js';
import * as service from './service.js';

/**
 * Name and email are required only from visitors. This runs before
 * the input parser, on the raw input, with the form schema that fits the
 * caller, so a visitor gets every missing field at once, in form order.
 */
const checkedForCaller = publicProcedure.use(async ({ ctx, getRawInput, next }) => {
  const form = ctx.user ? supportFormSignedIn : supportFormSignedOut;
  const checked = form.safeParse(await getRawInput());
  if (!checked.success) throw new TRPCError({ code: 'BAD_REQUEST', cause: checked.error });
  return next();
});

export const supportRouter = router({
  create: checkedForCaller
    .input(supportRequestInput)
    .output(supportRequestResult)
    .mutation(({ ctx, input }) => service.createSupportRequest(ctx.deps, ctx.user, ctx.meta, input)),
});
