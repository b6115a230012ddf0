import { initTRPC, TRPCError } from '@trpc/server';
import { getErrorShape, transformTRPCResponse } from '@trpc/server/unstable-core-do-not-import';
import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { appRouter } from '../../server/trpc/root.js';

/**
 * Contract: a router's `_def._config` and the two helpers of
 * `@trpc/server/unstable-core-do-not-import` that http/body-limit.ts uses to
 * answer a tRPC request it refuses before tRPC sees it (a 413 the client reads
 * like any other tRPC error).
 */
describe('contract: tRPC router config', () => {
  it('a router keeps its root config (transformer, error formatter) at _def._config', () => {
    const config = appRouter._def._config;
    expect(typeof config.transformer.output.serialize).toBe('function');
    expect(typeof config.errorFormatter).toBe('function');
  });

  it('getErrorShape runs our error formatter, and transformTRPCResponse serializes the error with the output transformer', () => {
    const t = initTRPC.create({
      transformer: superjson,
      errorFormatter: ({ shape }) => ({ ...shape, data: { ...shape.data, ours: true } }),
    });
    const config = t.router({})._def._config;
    const error = new TRPCError({ code: 'PAYLOAD_TOO_LARGE', message: 'too large' });
    const shape = getErrorShape({ config, error, type: 'unknown', path: 'a.b', input: undefined, ctx: undefined });
    expect(shape).toMatchObject({ message: 'too large', data: { code: 'PAYLOAD_TOO_LARGE', httpStatus: 413, path: 'a.b', ours: true } });
    const body = transformTRPCResponse(config, { error: shape } as never) as { error: unknown };
    expect(body.error).toEqual(superjson.serialize(shape));
  });
});
