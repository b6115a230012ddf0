import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDefinitions, DEFINITIONS, definitionBody, readDefinition } from '../../server/db/definitions.js';
import type { DbHandle } from '../../server/db/index.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { createTestDatabase } from '../helpers/db.js';

/**
 * The send's rules (and the rate limit and pushes it shares) are SQL source files applied as repeatable
 * definitions: what runs in the database is what the files say, a changed file is applied again and an
 * unchanged one is left alone.
 */
let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
  await migrateToLatest(handle.db);
});
afterAll(async () => {
  await handle?.close();
});

const functionsNamed = async (name: string) =>
  (
    await sql<{ body: string; signature: string }>`
      select p.prosrc as body, p.oid::regprocedure::text as signature
        from pg_proc p where p.proname = ${name} and p.pronamespace = current_schema()::regnamespace`.execute(handle.db)
  ).rows;

describe('repeatable definitions', () => {
  it('the database runs exactly what each file says, one function per file', async () => {
    for (const file of DEFINITIONS) {
      const d = readDefinition(file);
      const found = await functionsNamed(d.name);
      expect(
        found.map((f) => f.signature),
        file,
      ).toHaveLength(1);
      expect(found[0]!.body, file).toBe(definitionBody(d));
    }
  });

  it('applies nothing again while the files are unchanged', async () => {
    expect(await applyDefinitions(handle.db)).toEqual([]);
  });

  it('applies a changed file again, its arguments and answer may change, and the old form is gone', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'poshan-definitions-'));
    try {
      const file = path.join(dir, 'definitions_probe.sql');
      const write = (text: string) => writeFileSync(file, text);
      // Definitions are named relative to server/; an absolute path is read as it is.
      write(`create or replace function definitions_probe(p integer) returns integer language sql immutable as $$ select p + 1 $$;\n`);
      expect(await applyDefinitions(handle.db, [file])).toEqual([file]);
      expect(await applyDefinitions(handle.db, [file])).toEqual([]);
      write(`create or replace function definitions_probe(p text) returns text language sql immutable as $$ select p || '!' $$;\n`);
      expect(await applyDefinitions(handle.db, [file])).toEqual([file]);
      expect((await functionsNamed('definitions_probe')).map((f) => f.signature)).toEqual(['definitions_probe(text)']);
      const { rows } = await sql<{ v: string }>`select definitions_probe('ok') as v`.execute(handle.db);
      expect(rows[0]!.v).toBe('ok!');
    } finally {
      await sql`drop function if exists definitions_probe(text)`.execute(handle.db);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a file must hold the function it is named after', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'poshan-definitions-'));
    try {
      const file = path.join(dir, 'misnamed.sql');
      writeFileSync(file, 'create or replace function other_name() returns integer language sql as $$ select 1 $$;');
      expect(() => readDefinition(file)).toThrow(/must hold "create or replace function misnamed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
