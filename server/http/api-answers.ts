import type { MiddlewareHandler } from 'hono';
import { defaultResponseHeaders, type HeaderPairs } from './response-headers.js';

const NO_STORE: HeaderPairs = [['Cache-Control', 'no-store']];

/**
 * API answers carry session tokens and health data: no browser or proxy may
 * keep them. A route that is really public and cacheable (the country list)
 * sets its own Cache-Control, which is left alone.
 */
export const noStoreByDefault = (): MiddlewareHandler => async (c, next) => {
  await next();
  defaultResponseHeaders(c, NO_STORE);
};
