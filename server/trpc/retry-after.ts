import type { TRPCError } from '@trpc/server';
import { AppError } from '../errors.js';

/**
 * tRPC over HTTP answers a refusal with the same Retry-After header as REST
 * (server/rest/mount.ts): the longest wait among the calls of the request.
 */
export function retryAfterMeta({ errors }: { errors: TRPCError[] }): { headers?: Record<string, string> } {
  const wait = Math.max(0, ...errors.map((e) => (e instanceof AppError ? (e.retryAfterSeconds ?? 0) : 0)));
  return wait > 0 ? { headers: { 'Retry-After': String(wait) } } : {};
}
