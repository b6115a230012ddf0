import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { pageKind } from './site-pages.js';

/**
 * The server answers 404 for addresses it does not know: every route the
 * client declares must be in the server's table, or users following a link
 * would get the not-found page from a full page load.
 */
it('knows every route the client declares', () => {
  const sources = ['src/app/routes.tsx', 'src/features/public/PublicArea.tsx'];
  const paths = sources.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/<Route\s+path="([^"]+)"/g)].map((m) => m[1]!));
  expect(paths.length).toBeGreaterThan(5);
  for (const p of paths) {
    const concrete = p.replace(/\/\*$/, '/anything').replace(/:\w+/g, '1');
    expect(pageKind(concrete).kind, `${p} (${concrete})`).not.toBe('not-found');
  }
});

it('tells prerendered pages, client routes and unknown addresses apart', () => {
  expect(pageKind('/')).toEqual({ kind: 'prerendered', file: 'index.html' });
  expect(pageKind('/faq')).toEqual({ kind: 'prerendered', file: 'faq/index.html' });
  expect(pageKind('/dashboard/weight/history').kind).toBe('shell');
  expect(pageKind('/admin').kind).toBe('shell');
  expect(pageKind('/administrator').kind).toBe('not-found');
  expect(pageKind('/faq/more').kind).toBe('not-found');
});
