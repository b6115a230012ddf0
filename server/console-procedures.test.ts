import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { relativePath, sourcesUnder } from '../tests/helpers/source-files.js';

/**
 * Domain first: a domain's console procedures (built on `adminProcedure`,
 * the dietitian's procedure base in trpc/init.ts) live in its `console.ts`
 * (or, in a domain with several areas, `<area>-console.ts`) beside the client
 * router, calling the same services. server/admin/ keeps only the pages that
 * span domains. A console procedure declared anywhere else fails here.
 */
const serverDir = path.dirname(fileURLToPath(import.meta.url));

const CROSS_DOMAIN_PAGES = ['admin/overview/', 'admin/audit-log/', 'admin/outbox/'];
/** Where the procedure base itself is made. */
const NOT_DECLARATIONS = ['trpc/init.ts'];

const isConsoleFile = (rel: string) => /(^|\/)([\w-]+-)?console\.ts$/.test(rel) || CROSS_DOMAIN_PAGES.some((dir) => rel.startsWith(dir));

/** Whether the code (comments left out) uses the dietitian's procedure base. */
export function usesConsoleBase(text: string): boolean {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return /\badminProcedure\b/.test(code);
}

describe('console procedures live in their domain', () => {
  it('no module other than a console.ts or a cross-domain page declares one', () => {
    const offenders = sourcesUnder(serverDir)
      .map((file) => relativePath(serverDir, file))
      .filter((rel) => !NOT_DECLARATIONS.includes(rel) && !isConsoleFile(rel))
      .filter((rel) => usesConsoleBase(readFileSync(path.join(serverDir, rel), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('tells a console file and a use of the base', () => {
    expect(isConsoleFile('feed/console.ts')).toBe(true);
    expect(isConsoleFile('nutrition/recipes-console.ts')).toBe(true);
    expect(isConsoleFile('admin/overview/router.ts')).toBe(true);
    expect(isConsoleFile('feed/router.ts')).toBe(false);
    expect(isConsoleFile('admin/clients/router.ts')).toBe(false);
    expect(usesConsoleBase('export const r = router({ create: adminProcedure.input(x) });')).toBe(true);
    expect(usesConsoleBase('const base = adminProcedure.use(audited);')).toBe(true);
    expect(usesConsoleBase('/** Every procedure below is an adminProcedure. */\nexport const r = router({});')).toBe(false);
    expect(usesConsoleBase('// adminProcedure only\nexport const r = router({});')).toBe(false);
  });
});
