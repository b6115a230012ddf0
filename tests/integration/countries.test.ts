import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoCountries } from '../../server/countries/sync.js';
import { createContextInner } from '../../server/trpc/context.js';
import { createCaller } from '../../server/trpc/root.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

describe('GET /api/countries', () => {
  it('lists every ISO 3166-1 country as {id, name}, sorted by name, to anyone', async () => {
    const res = await server.request('GET', '/api/countries');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(200);
    const list: { id: number; name: string }[] = res.body.data;
    expect(list.length).toBe(isoCountries().length);
    expect(list.length).toBeGreaterThanOrEqual(245);
    expect(list).toContainEqual({ id: 356, name: 'India' });
    expect(Object.keys(list[0]!).sort()).toEqual(['id', 'name']);
    const names = list.map((c) => c.name);
    const collator = new Intl.Collator('en', { sensitivity: 'base' });
    expect(names).toEqual([...names].sort(collator.compare));
    expect(new Set(list.map((c) => c.id)).size).toBe(list.length);
  });

  it('lets browsers and proxies cache the list', async () => {
    const res = await server.request('GET', '/api/countries');
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
  });

  it('is the same list over tRPC', async () => {
    const caller = createCaller(createContextInner({ deps: server.deps }));
    const res = await server.request('GET', '/api/countries');
    expect(await caller.countries.list()).toEqual(res.body.data);
  });
});
