import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../server/db/index.js';
import { createTestDatabase } from '../helpers/db.js';

/**
 * Issue 10: on Postgres every query text the app sends is a named statement
 * (server/db/prepared-pool.ts), prepared once per connection.
 */
let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

describe.skipIf(!process.env.TEST_DATABASE_URL)('named statements on Postgres', () => {
  it('prepare each query text once per connection and reuse it', async () => {
    // One transaction: one connection, whose prepared statements we can list.
    const prepared = await handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 5; i++) expect((await sql<{ n: number }>`select ${i}::int4 + 1 as n`.execute(trx)).rows[0]!.n).toBe(i + 1);
      return (await sql<{ statement: string }>`select statement from pg_prepared_statements where from_sql = false`.execute(trx)).rows.map(
        (r) => r.statement,
      );
    });
    expect(prepared.filter((s) => s.startsWith('select $1::int4 + 1'))).toHaveLength(1);
  });

  it('send transaction statements (begin, savepoints, commit) unprepared, in one message each', async () => {
    const trx = await handle.db.startTransaction().execute();
    const inner = await trx.savepoint('inner').execute();
    await sql`select 1`.execute(inner);
    await inner.rollbackToSavepoint('inner').execute();
    await inner.releaseSavepoint('inner').execute();
    const prepared = (await sql<{ statement: string }>`select statement from pg_prepared_statements where from_sql = false`.execute(trx))
      .rows;
    await trx.commit().execute();
    const texts = prepared.map((r) => r.statement.trim().toLowerCase());
    // Prepared: an ordinary query. Not prepared: anything that begins, marks or ends the transaction.
    expect(texts).toContain('select 1');
    expect(texts.filter((t) => /^(begin|start transaction|savepoint|rollback|release|commit)\b/.test(t))).toEqual([]);
  });

  it('fail once, then prepare afresh, when a newer schema changes what a statement returns', async () => {
    await sql`create table t_shape (a int)`.execute(handle.db);
    await sql`insert into t_shape values (1)`.execute(handle.db);
    const read = () => handle.db.transaction().execute((trx) => sql<Record<string, number>>`select * from t_shape`.execute(trx));
    expect((await read()).rows).toEqual([{ a: 1 }]);
    await sql`alter table t_shape add column b int default 2`.execute(handle.db);
    // The connection that prepared it refuses the changed result once ("cached plan must not change result type")...
    const outcomes = [];
    for (let i = 0; i < 3; i++)
      outcomes.push(
        await read().then(
          (r) => r.rows,
          (err: { code?: string }) => err.code,
        ),
      );
    // ...then the text runs under a new name, prepared against today's table.
    expect(outcomes.at(-1)).toEqual([{ a: 1, b: 2 }]);
    expect(outcomes.filter((o) => o === '0A000')).toHaveLength(1);
  });
});
