import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../server/trpc/root';

/**
 * What each procedure takes and answers, inferred from the router: the client
 * never re-declares a server shape, so a change on the server is a type error here.
 * Type-only: nothing of the server reaches the browser bundle.
 */
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
