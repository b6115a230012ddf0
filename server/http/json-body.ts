import type { Context } from 'hono';
import { badRequest } from '../errors.js';

export const INVALID_JSON = 'The request body must be valid JSON.';

/**
 * The one reader of JSON request bodies outside tRPC: an empty body is
 * `undefined`, anything that is not JSON is a 400. The size was already
 * bounded by the body limit in front of the route (server/http/body-limit.ts).
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest(INVALID_JSON);
  }
}
