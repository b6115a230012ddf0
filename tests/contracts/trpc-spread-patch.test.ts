import { execFileSync } from 'node:child_process';
import { initTRPC } from '@trpc/server';
import { describe, expect, it } from 'vitest';

/**
 * Contract: the spread patch of @trpc/server (scripts/patch-deps.mjs,
 * decision 110). It must be in place after every install (an install with
 * --ignore-scripts skips it: this fails), and calls must see exactly what the
 * unpatched helper gives them: merged contexts, input, meta, getters read
 * into plain values, an own "__proto__" kept as data.
 */
describe('contract: tRPC spread patch', () => {
  it('is in place in node_modules (an upgrade or an install without scripts that loses it fails here)', () => {
    expect(() => execFileSync(process.execPath, ['scripts/patch-deps.mjs', '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('leaves what middlewares and resolvers receive unchanged: merged contexts, input, meta, and an own __proto__ key kept as data', async () => {
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

  it('reads a getter in a context into its value, as the unpatched helper does (a getter never survives as a getter)', async () => {
    let reads = 0;
    const t = initTRPC.context<{ base: number }>().create();
    const procedure = t.procedure
      .use(({ next }) =>
        next({
          ctx: {
            get lazy() {
              reads += 1;
              return 42;
            },
          },
        }),
      )
      .query(({ ctx }) => ctx);
    const ctx = await t
      .createCallerFactory(t.router({ p: procedure }))({ base: 1 })
      .p();
    expect(ctx).toMatchObject({ base: 1, lazy: 42 });
    const descriptor = Object.getOwnPropertyDescriptor(ctx, 'lazy');
    expect(descriptor).toMatchObject({ value: 42, enumerable: true, writable: true });
    expect(descriptor?.get).toBeUndefined();
    const before = reads;
    void ctx.lazy;
    expect(reads).toBe(before);
  });
});
