import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativePath, repoRoot, sourcesUnder } from '../tests/helpers/source-files.js';

/**
 * A comment gives the reason in words. An issue number (the word and a
 * number, or a hash and a number) is a pointer a newcomer cannot follow: the
 * tracker is not part of the repository. The decision records in docs/ may
 * cite them; code may not.
 */
const CODE_DIRS = ['server', 'src', 'tests', 'scripts', 'migrations'];
const CODE_FILE = /\.(tsx?|mjs|js|sql|css)$/;
const ISSUE = /\bissues? #?\d+|\(#\d+\)|\b(?:see|in|from|of) #\d+\b/i;

/** The comments of a file: `//` and `/* … *\/`, and `--` in SQL. */
export function commentsOf(text: string, sql = false): string[] {
  const pattern = sql ? /--[^\n]*|\/\*[\s\S]*?\*\//g : /\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g;
  return [...text.matchAll(pattern)].map((m) => m[0]);
}

describe('comments say why, not which issue', () => {
  it('no code comment cites an issue number', () => {
    const found = CODE_DIRS.flatMap((dir) => sourcesUnder(path.join(repoRoot, dir), { withTests: true, files: CODE_FILE })).flatMap(
      (file) =>
        commentsOf(readFileSync(file, 'utf8'), file.endsWith('.sql'))
          .filter((comment) => ISSUE.test(comment))
          .map((comment) => `${relativePath(repoRoot, file)}: ${comment.match(ISSUE)?.[0]}`),
    );
    expect(found).toEqual([]);
  });

  it('finds an issue number in a comment, and only there', () => {
    // Built from parts, so that this file's own text cites none.
    const [issue, n] = ['issue', 26];
    const text = `// Appointments (${issue} ${n})\nconst url = 'https://x.example/#12';\n/** Payments (${issue}s 27 and 28). */\nconst s = '${issue} 5';`;
    expect(commentsOf(text).filter((c) => ISSUE.test(c))).toEqual([
      `// Appointments (${issue} ${n})`,
      `/** Payments (${issue}s 27 and 28). */`,
    ]);
    expect(commentsOf(`-- the send (see #${n})\nselect 1;`, true).some((c) => ISSUE.test(c))).toBe(true);
    expect(ISSUE.test('// the first 12 rows (#rows)')).toBe(false);
  });
});
