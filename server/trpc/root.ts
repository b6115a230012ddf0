import { router, createCallerFactory } from './init.js';
import { visitRouter } from '../visit/router.js';
import { weightRouter } from '../weight/router.js';

/**
 * The whole API. Each domain adds one line here (and its REST routes in
 * server/rest/routes.ts).
 */
export const appRouter = router({
  visit: visitRouter,
  weight: weightRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
export type AppCaller = ReturnType<typeof createCaller>;
