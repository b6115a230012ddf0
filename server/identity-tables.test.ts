import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourcesUnder } from '../tests/helpers/source-files.js';

/**
 * No module-level WeakMap or WeakSet decides how an answer is built
 * (decision 111): a fast path carries what it kept on the value itself
 * (`Prepared<T>`) where the types show it. The tables below are bookkeeping
 * keyed by their owners, each for a reason of its own; a new one needs a line.
 */
const BOOKKEEPING: Record<string, string> = {
  'rest/openapi.ts': 'the OpenAPI document made once per route list',
  'auth/service.ts': 'when expired sessions were last pruned, per database handle',
  'auth/keys.ts': 'the sign-in key ring per database handle',
  'auth/rate-limit.ts': 'when old limit rows were last pruned, per database handle',
  'realtime/request-ids.ts': "a WebSocket upgrade request's id, for its log lines",
};

const serverDir = path.dirname(fileURLToPath(import.meta.url));

describe('identity side tables', () => {
  it('only the listed bookkeeping modules hold a WeakMap or WeakSet', () => {
    const holders = sourcesUnder(serverDir)
      .map((file) => path.relative(serverDir, file).split(path.sep).join('/'))
      .filter((rel) => /\bnew Weak(Map|Set)\b/.test(readFileSync(path.join(serverDir, rel), 'utf8')));
    expect(holders.filter((rel) => !(rel in BOOKKEEPING))).toEqual([]);
    // A listed module that no longer needs its table is taken off the list.
    expect(Object.keys(BOOKKEEPING).filter((rel) => !holders.includes(rel))).toEqual([]);
  });
});
