import { authedProcedure, publicProcedure, router } from '../trpc/init.js';
import { currentPublicKey } from './keys.js';
import {
  checkAuthorizationOutput,
  forgotPasswordInput,
  messageOutput,
  publicKeyOutput,
  refreshInput,
  resetPasswordInput,
  sessionOutput,
  signInInput,
  signInOutput,
  signOutInput,
} from './schema.js';
import * as service from './service.js';
import { changePasswordInput, deviceOutput, signOutDeviceInput } from '../users/schema.js';
import { z } from 'zod';

export const authRouter = router({
  /** The RSA-OAEP key the client encrypts passwords with (rotates; fetch it before each sign-in). */
  publicKey: publicProcedure.output(publicKeyOutput).query(({ ctx }) => currentPublicKey(ctx.deps)),
  signIn: publicProcedure
    .input(signInInput)
    .output(signInOutput)
    .mutation(({ ctx, input }) => service.signIn(ctx.deps, ctx.meta, input)),
  refresh: publicProcedure
    .input(refreshInput)
    .output(sessionOutput)
    .mutation(({ ctx, input }) => service.refresh(ctx.deps, ctx.meta, input)),
  checkAuthorization: authedProcedure
    .output(checkAuthorizationOutput)
    .query(({ ctx }) => service.checkAuthorization(ctx.deps.db, ctx.user)),
  signOut: publicProcedure
    .input(signOutInput)
    .output(messageOutput)
    .mutation(({ ctx, input }) => service.signOut(ctx.deps.db, ctx.user, input?.refreshToken)),
  forgotPassword: publicProcedure
    .input(forgotPasswordInput)
    .output(messageOutput)
    .mutation(({ ctx, input }) => service.forgotPassword(ctx.deps, ctx.meta, input.email)),
  resetPassword: publicProcedure
    .input(resetPasswordInput)
    .output(messageOutput)
    .mutation(({ ctx, input }) => service.resetPassword(ctx.deps, ctx.meta, input)),
  changePassword: authedProcedure
    .input(changePasswordInput)
    .output(messageOutput)
    .mutation(({ ctx, input }) => service.changePassword(ctx.deps, ctx.user, ctx.meta, input)),
  devices: authedProcedure.output(z.array(deviceOutput)).query(({ ctx }) => service.listDevices(ctx.deps.db, ctx.user)),
  signOutDevice: authedProcedure
    .input(signOutDeviceInput)
    .output(messageOutput)
    .mutation(({ ctx, input }) => service.signOutDevice(ctx.deps.db, ctx.user, input.id)),
});
