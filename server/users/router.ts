import { z } from 'zod';
import { authedProcedure, router } from '../trpc/init.js';
import * as profile from './profile.js';
import { profileOutput, updateProfileInput } from './schema.js';

export const profileRouter = router({
  get: authedProcedure.output(profileOutput).query(({ ctx }) => profile.getProfile(ctx.deps.db, ctx.user)),
  update: authedProcedure
    .input(updateProfileInput)
    .output(z.object({ message: z.string(), data: profileOutput }))
    .mutation(({ ctx, input }) => profile.updateProfile(ctx.deps.db, ctx.user, input)),
});
