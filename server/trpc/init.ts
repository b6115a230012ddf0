import { initTRPC } from '@trpc/server';
import superjson from 'superjson';
import { ROLE } from '../auth/roles.js';
import { AppError, describeError } from '../errors.js';
import type { Context } from './context.js';

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error, ctx }) {
    const described = describeError(error, ctx?.deps.config.nodeEnv !== 'production');
    return {
      ...shape,
      message: described.message,
      data: {
        ...shape.data,
        stack: undefined,
        fieldErrors: described.fieldErrors ?? null,
        retryAfterSeconds: described.retryAfterSeconds ?? null,
      },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

export const publicProcedure = t.procedure;

const signedIn = t.middleware(({ ctx, next }) => {
  if (!ctx.user) throw new AppError('UNAUTHORIZED', 'Your session has expired. Please sign in again.');
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/** Any signed-in user (client or admin). Clients are narrowed further by the guards in auth/guards.ts. */
export const authedProcedure = t.procedure.use(signedIn);

/** A signed-in client (role 2). Admins may also call these and act for any client. */
export const clientProcedure = authedProcedure;

/** A signed-in dietitian (role 1). */
export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== ROLE.admin) throw new AppError('FORBIDDEN', 'Only dietitians can do that.');
  return next({ ctx });
});
