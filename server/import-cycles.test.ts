import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourcesUnder } from '../tests/helpers/source-files.js';

/**
 * Modules that import each other in a circle load in an order that depends on
 * who imported first (a value read at load time can be undefined), and cannot
 * be understood or tested one at a time. Type-only imports count too: they
 * erase at compile time, but a circle of types is still two modules that
 * cannot be read apart (a type belongs to the module that makes the value).
 * This reads every module's relative imports and finds the circles, as madge
 * would.
 */
const serverDir = path.dirname(fileURLToPath(import.meta.url));

/** Relative modules this file names: `import`, `import type`, `export … from` and `import()`. */
function moduleImports(file: string, text: string): string[] {
  const specifiers: string[] = [];
  const statement =
    /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.[^'"]+)['"]|(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(statement)) {
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

const graph = new Map(sourcesUnder(serverDir).map((file) => [file, moduleImports(file, readFileSync(file, 'utf8'))]));
const relative = (component: string[]) => component.map((f) => path.relative(serverDir, f));

describe('import circles in server/', () => {
  it('reads every kind of import, type-only ones included', () => {
    const text = `import { a } from './a.js';\nimport type { B } from './b.js';\nimport { type C, d } from './cd.js';\nexport { e } from './e.js';\nexport type { F } from './f.js';\nconst g = await import('./g.js');`;
    expect(moduleImports('/x/m.ts', text).map((f) => path.basename(f))).toEqual(['a.ts', 'b.ts', 'cd.ts', 'e.ts', 'f.ts', 'g.ts']);
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
