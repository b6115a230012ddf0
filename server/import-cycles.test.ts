import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Modules that import each other in a circle load in an order that depends on
 * who imported first (a value read at load time can be undefined), and cannot
 * be understood or tested one at a time. This reads every module's relative
 * imports (type-only ones erase at compile time and are left out) and finds
 * the circles, as madge would.
 */
const serverDir = path.dirname(fileURLToPath(import.meta.url));

function modulesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return modulesUnder(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Relative modules this file needs at run time: `import`, `export … from` and `import()`, not `import type`/`export type`. */
export function runtimeImports(file: string, text: string): string[] {
  const specifiers: string[] = [];
  const statement =
    /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.[^'"]+)['"]|(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(statement)) {
    if (m[2]) continue; // import type { … } / export type { … }
    const spec = m[4] ?? m[5] ?? m[6];
    if (spec) specifiers.push(path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
  }
  return specifiers;
}

/** Strongly connected components of more than one module, or a module that imports itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const graph = new Map(modulesUnder(serverDir).map((file) => [file, runtimeImports(file, readFileSync(file, 'utf8'))]));
const relative = (component: string[]) => component.map((f) => path.relative(serverDir, f));

describe('import circles in server/', () => {
  it('reads imports as the compiler does: type-only imports erase, mixed ones stay', () => {
    const text = `import { a } from './a.js';\nimport type { B } from './b.js';\nimport { type C, d } from './cd.js';\nexport { e } from './e.js';\nexport type { F } from './f.js';\nconst g = await import('./g.js');`;
    expect(runtimeImports('/x/m.ts', text).map((f) => path.basename(f))).toEqual(['a.ts', 'cd.ts', 'e.ts', 'g.ts']);
    expect(
      circles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
  });

  it('has none', () => {
    expect(circles(graph).map(relative)).toEqual([]);
  });
});
