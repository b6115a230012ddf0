import type { Context as HonoContext } from 'hono';
import type { ZodType } from 'zod';
import { badRequest } from '../errors.js';
import type { Context } from '../trpc/context.js';
import type { AppCaller } from '../trpc/root.js';

export type RestMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type RestResult = {
  /** HTTP status on success: 200 unless the spec says 201. */
  status?: 200 | 201;
  message: string;
  data?: unknown;
  /** Extra top-level envelope fields beside `data`, e.g. the diet plan list's total `count`. Never replaces status, message or data. */
  extra?: Record<string, unknown>;
  /** A finished answer that is not the JSON envelope (a file download); status, message and data are then unused. */
  response?: Response;
};

export type RestInput = {
  caller: AppCaller;
  body: unknown;
  query: Record<string, string>;
  params: Record<string, string>;
  c: HonoContext;
  /** The body's exact bytes, unparsed: only for a route declared with `request.raw` (then `body` is {}). */
  rawBody: Uint8Array | undefined;
  /** The request's context (deps and the signed-in user): for the few routes no procedure can serve (files, signed webhooks). */
  ctx: Context;
};

/**
 * A REST path of the spec: a thin adapter that hands the raw request to a
 * tRPC procedure through the caller. Schemas here only describe the path for
 * OpenAPI; validation happens once, in the procedure.
 */
export type RestRoute = {
  method: RestMethod;
  /** Hono path syntax, relative to /api, e.g. '/updated-weights/delete-updated-weight/:id'. */
  path: string;
  summary: string;
  tag: string;
  auth: 'none' | 'optional' | 'required';
  /**
   * The route reads or writes one client's data through auth/guards.ts (clientToActFor): a client names
   * only itself (403), a dietitian must name a client who exists (404). Documented from this in OpenAPI.
   */
  clientData?: true;
  request?: {
    body?: ZodType;
    query?: ZodType;
    params?: ZodType;
    /**
     * The body is multipart/form-data with these file parts (name → description), read by the route
     * itself instead of as JSON (the uploads: binary files do not travel as JSON).
     */
    files?: Record<string, string>;
    /**
     * The body is handed to the route as its exact bytes (`rawBody`), not parsed: a signed webhook, whose
     * signature covers those bytes and must be checked before anything reads them. `body` still describes
     * its JSON for OpenAPI.
     */
    raw?: true;
  };
  /** The success answer is a file of one of these types (not the envelope); errors are still envelopes. */
  download?: { contentTypes: readonly string[] };
  /** Shape of `data` in the envelope. */
  response?: ZodType;
  /** Shapes of the `extra` top-level envelope fields, if the route returns any (for OpenAPI). */
  responseExtra?: Record<string, ZodType>;
  successStatus?: 200 | 201;
  /**
   * A create a client may repeat (its idempotency key, or a booking already in hand) answers 200 with the
   * first result instead of 201: what that 200 means, for OpenAPI. The data has the route's `response` shape.
   */
  repeatAnswer?: string;
  /**
   * Error statuses OpenAPI cannot infer from the declaration (a 409, a rate limit's 429, a 404 from the
   * input), or a route's own wording of an inferred one; server/rest/openapi.ts (errorStatuses) infers the rest.
   */
  errors?: Record<number, string>;
  handle(input: RestInput): Promise<RestResult>;
};

export const defineRoutes = (routes: RestRoute[]) => routes;

/**
 * Raw request input handed to a procedure, which validates it with its own
 * zod schema (one set of rules for tRPC and REST).
 */
export const untrusted = <T>(value: unknown) => value as T;

/**
 * A procedure's input from a request's JSON body and the values its path names (the id): a body that is
 * not a JSON object (null included) is refused in words, never read as an empty change. No body at all
 * arrives here as {} (server/rest/mount.ts).
 */
export function withBody(body: unknown, extra: Record<string, unknown>): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The request body must be a JSON object.');
  return { ...(body as Record<string, unknown>), ...extra };
}

/** A path's `:id` as the procedure's id field reads it: a number when it is digits, else the text (refused there in words). */
export const pathId = (params: Record<string, string>) => (/^\d+$/.test(params.id ?? '') ? Number(params.id) : params.id);
