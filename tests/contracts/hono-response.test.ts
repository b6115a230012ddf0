import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';

/**
 * Contract: Hono's `c.res` setter (http/compression.ts relies on it). Set
 * over an existing response, Hono copies the old one's headers into the new
 * one (all but Content-Type), rebuilding it around its body; set to
 * undefined first, the new response is taken as it is.
 */
describe("contract: Hono's c.res", () => {
  const app = (replace: 'over' | 'after undefined') => {
    const hono = new Hono();
    hono.use(async (c, next) => {
      await next();
      const replacement = new Response('new', { headers: { 'X-New': '1', 'Content-Type': 'text/plain' } });
      if (replace === 'after undefined') c.res = undefined;
      c.res = replacement;
      c.header('X-Identity', c.res === replacement ? 'same' : 'rebuilt');
    });
    hono.get('/', (c) => c.json({ old: true }, 200, { 'X-Old': '1' }));
    return hono;
  };

  it('set over an existing response, merges the old headers into a rebuilt response', async () => {
    const res = await app('over').request('/');
    expect(await res.text()).toBe('new');
    expect(res.headers.get('X-Old')).toBe('1');
    expect(res.headers.get('Content-Type')).toBe('text/plain');
    expect(res.headers.get('X-Identity')).toBe('rebuilt');
  });

  it('set to undefined first, takes the new response as it is', async () => {
    const res = await app('after undefined').request('/');
    expect(await res.text()).toBe('new');
    expect(res.headers.get('X-Old')).toBeNull();
    expect(res.headers.get('X-Identity')).toBe('same');
  });
});
