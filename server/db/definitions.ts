import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Kysely, sql } from 'kysely';

/**
 * Functions whose rules live in SQL are source files beside their domain, applied as repeatable definitions:
 * after the migrations (which hold tables only), each file is run again when its text changed since it was
 * last applied, and left alone otherwise. A file holds one `create or replace function`, named as the file.
 * What was applied is the function's comment (`definition sha256:<hash of the file>`), so a database knows
 * which text made each function without a table of its own.
 *
 * Listed in the order they are applied: a SQL-language function is checked against what exists when it is
 * created (plpgsql is checked when it runs), so what another file's SQL function reads comes first.
 */
export const DEFINITIONS = [
  'db/sql/rate_limit_lock.sql',
  'db/sql/rate_limit_full_at.sql',
  'notifications/sql/record_push_notices.sql',
  'messages/sql/message_recipients.sql',
  'messages/sql/message_send.sql',
] as const;

export type Definition = { file: string; name: string; text: string; hash: string };

const serverDir = new URL('../', import.meta.url);

/** A definition's file as applied: its function's name (the file's), its text and the text's hash. */
export function readDefinition(file: string): Definition {
  const text = readFileSync(new URL(file, serverDir), 'utf8');
  const name = file.replace(/^.*\//, '').replace(/\.sql$/, '');
  if (!new RegExp(`create or replace function ${name}\\(`, 'i').test(text)) {
    throw new Error(`${file} must hold "create or replace function ${name}(…)"`);
  }
  return { file, name, text, hash: createHash('sha256').update(text).digest('hex') };
}

/** The body of the function a definition creates: the text between its `$$` quotes, as the database keeps it (prosrc). */
export function definitionBody(d: Definition): string {
  const from = d.text.indexOf('$$');
  const to = d.text.lastIndexOf('$$');
  if (from < 0 || to <= from) throw new Error(`${d.file}: the function's body must be quoted with $$`);
  return d.text.slice(from + 2, to);
}

const commentOf = (d: Definition) => `definition sha256:${d.hash}`;

/**
 * Applies every definition whose file changed (or whose function is missing), in one transaction under a lock
 * of its own, so instances starting together apply each once. A changed function is dropped first (every
 * overload of its name), so a file may change its arguments or its answer. Returns the files applied.
 */
export async function applyDefinitions(db: Kysely<any>, definitions: readonly string[] = DEFINITIONS): Promise<string[]> {
  const wanted = definitions.map(readDefinition);
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended('poshan repeatable definitions', 0))`.execute(trx);
    const applied: string[] = [];
    for (const d of wanted) {
      const { rows } = await sql<{ signature: string; comment: string | null }>`
        select p.oid::regprocedure::text as signature, obj_description(p.oid, 'pg_proc') as comment
          from pg_proc p where p.proname = ${d.name} and p.pronamespace = current_schema()::regnamespace`.execute(trx);
      if (rows.length === 1 && rows[0]!.comment === commentOf(d)) continue;
      for (const r of rows) await sql`drop function ${sql.raw(r.signature)}`.execute(trx);
      await sql.raw(d.text).execute(trx);
      const { rows: made } = await sql<{ signature: string }>`
        select p.oid::regprocedure::text as signature
          from pg_proc p where p.proname = ${d.name} and p.pronamespace = current_schema()::regnamespace`.execute(trx);
      if (made.length !== 1) throw new Error(`${d.file} did not create one function ${d.name}`);
      await sql.raw(`comment on function ${made[0]!.signature} is '${commentOf(d)}'`).execute(trx);
      applied.push(d.file);
    }
    return applied;
  });
}
