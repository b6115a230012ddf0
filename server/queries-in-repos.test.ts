import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { relativePath, sourcesUnder } from '../tests/helpers/source-files.js';

/**
 * Queries live in repositories: a domain's repo.ts, or a `<name>-repo.ts`
 * beside it. The files below are the only others that send SQL, each for a
 * reason of its own (the README's project layout lists them too).
 */
export const INFRASTRUCTURE_WITH_OWN_SQL: Record<string, string> = {
  'app.ts': 'the readiness probe sends `select 1`: a question about the connection, not about data',
  'cli/postgres.ts': 'a command checks that Postgres answers (`select 1`) before anything else, to say so clearly when it does not',
  'db/definitions.ts': "applies the functions' SQL source files after the migrations, reading the catalogue to see which changed",
  'db/clock-skew.ts': "reads the database server's clock to compare it with this machine's",
  'db/startup-lock.ts': 'a session-level advisory lock held on its own connection across the migrations',
  'seed/demo.ts': "demo content for every domain's tables in one transaction, under its own advisory lock",
  'feed/bus.ts': 'the live feed: NOTIFY and its catch-up reads, part of the live channel',
  'feed/event-log.ts': "the feed event log's statements, shared by the feed's writes",
  'check-in/bus.ts': "NOTIFY of follow-up events, in the writer's transaction",
  'realtime/notify-source.ts':
    "the live channel's generic LISTEN/NOTIFY source: publishes a stream's notification in the writer's transaction",
};

const serverDir = path.dirname(fileURLToPath(import.meta.url));
const QUERY = /\bsql(?:<[^>]*>)?`|\.(?:selectFrom|insertInto|updateTable|deleteFrom|mergeInto|replaceInto)\(/;

describe('queries only in repositories', () => {
  it('no module outside a repository or the listed infrastructure builds a query', () => {
    const offenders = sourcesUnder(serverDir)
      .map((file) => relativePath(serverDir, file))
      .filter((rel) => !/(^|\/)(repo|[\w-]+-repo)\.ts$/.test(rel) && !(rel in INFRASTRUCTURE_WITH_OWN_SQL))
      .filter((rel) => QUERY.test(readFileSync(path.join(serverDir, rel), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('recognises a query', () => {
    for (const text of ['await sql`select 1`', 'db.selectFrom("users")', 'sql<{ n: number }>`select 1`', 'trx.deleteFrom("x")'])
      expect(QUERY.test(text), text).toBe(true);
    expect(QUERY.test("import { sql } from 'kysely';")).toBe(false);
  });
});
