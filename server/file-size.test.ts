import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A server source file past 450 lines holds more than one use case: split it by use case, one file
 * each (as appointments/, payments/ and care-record/ are), behind the module its callers import.
 * The files below may be longer, each for a reason of its own.
 */
export const MAX_LINES = 450;

export const LONGER_FILES: Record<string, string> = {
  'db/schema.ts':
    "the Database interface Kysely checks every query against: one table's row type after another, compared with the migrated database as a whole by tests/integration/schema.test.ts",
};

const serverDir = path.dirname(fileURLToPath(import.meta.url));

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const lineCount = (file: string) => readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length;

describe('server source files stay short', () => {
  const files = sourcesUnder(serverDir).map((file) => ({
    rel: path.relative(serverDir, file).split(path.sep).join('/'),
    lines: lineCount(file),
  }));

  it(`no server source file passes ${MAX_LINES} lines unless it is listed with its reason`, () => {
    const over = files.filter((f) => f.lines > MAX_LINES && !(f.rel in LONGER_FILES)).map((f) => `${f.rel}: ${f.lines} lines`);
    expect(over).toEqual([]);
  });
});
