import type { MiddlewareHandler } from 'hono';

/**
 * API answers carry session tokens and health data: no browser or proxy may
 * keep them. A route that is really public and cacheable (the country list)
 * sets its own Cache-Control, which is left alone.
 */
export const noStoreByDefault = (): MiddlewareHandler => async (c, next) => {
  await next();
  if (!c.res.headers.has('cache-control')) c.res.headers.set('Cache-Control', 'no-store');
};
