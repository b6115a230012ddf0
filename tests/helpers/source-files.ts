import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (this file is tests/helpers/source-files.ts). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Every file under `dir` whose name matches `files` (TypeScript by default),
 * as absolute paths: sources only unless `withTests` (declaration files
 * never). The tests that hold the code's shape (import circles, where queries
 * and console procedures live, comments) read the tree through this.
 */
export function sourcesUnder(dir: string, opts: { withTests?: boolean; files?: RegExp } = {}): string[] {
  const files = opts.files ?? /\.tsx?$/;
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourcesUnder(full, opts);
    if (!files.test(entry.name) || entry.name.endsWith('.d.ts')) return [];
    return opts.withTests || !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** A path relative to `from`, with forward slashes. */
export const relativePath = (from: string, file: string) => path.relative(from, file).split(path.sep).join('/');
