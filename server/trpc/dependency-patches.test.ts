import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { initTRPC } from '@trpc/server';

/** scripts/patch-deps.mjs (decision 100): the installed tRPC carries the faster spread, and calls still see the same options. */
describe('dependency patches', () => {
  it('are in place in node_modules (an upgrade that loses one fails here)', () => {
    expect(() => execFileSync(process.execPath, ['scripts/patch-deps.mjs', '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('leave what middlewares and resolvers receive unchanged: merged contexts, input, meta, and an own __proto__ key kept as data', async () => {
    const t = initTRPC.context<{ a: number; b?: number }>().meta<{ tag: string }>().create();
    const proto = JSON.parse('{"__proto__": {"polluted": true}, "c": 3}') as Record<string, unknown>;
    const seen: unknown[] = [];
    const procedure = t.procedure
      .meta({ tag: 'm' })
      .use(({ ctx, meta, next }) => {
        seen.push({ ...ctx }, meta);
        return next({ ctx: { b: 2 } });
      })
      .use(({ next }) => next({ ctx: proto }))
      .input((v) => v as { x: number })
      .query(({ ctx, input }) => ({ ctx, input }));
    const caller = t.createCallerFactory(t.router({ p: procedure }))({ a: 1 });
    const result = await caller.p({ x: 5 });
    expect(seen).toEqual([{ a: 1 }, { tag: 'm' }]);
    expect(result.input).toEqual({ x: 5 });
    expect(result.ctx).toMatchObject({ a: 1, b: 2, c: 3 });
    expect(Object.getPrototypeOf(result.ctx)).toBe(Object.prototype);
    expect(Object.hasOwn(result.ctx, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
