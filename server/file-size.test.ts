import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativePath, repoRoot, sourcesUnder } from '../tests/helpers/source-files.js';

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

const serverDir = path.join(repoRoot, 'server');

const lineCount = (file: string) => readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length;

describe('server source files stay short', () => {
  const files = sourcesUnder(serverDir).map((file) => ({ rel: relativePath(serverDir, file), lines: lineCount(file) }));

  it(`no server source file passes ${MAX_LINES} lines unless it is listed with its reason`, () => {
    const over = files.filter((f) => f.lines > MAX_LINES && !(f.rel in LONGER_FILES)).map((f) => `${f.rel}: ${f.lines} lines`);
    expect(over).toEqual([]);
  });
});
