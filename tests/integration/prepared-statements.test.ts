import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../server/db/index.js';
import { loadConfig } from '../../server/env.js';
import { openDatabase } from '../../server/server.js';
import { createTestDatabase } from '../helpers/db.js';

/**
 * On Postgres every query text the app sends is a named statement
 * (server/db/prepared-pool.ts), prepared once per connection, so the server
 * parses and plans it once instead of on every call. DATABASE_NAMED_STATEMENTS=0
 * turns that off for poolers that cannot hold prepared statements.
 */
let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

/** The names this connection prepared through the protocol (not PREPARE): pg_prepared_statements is per connection. */
const preparedOnThisConnection = (db: DbHandle['db']) =>
  db.transaction().execute(async (trx) => {
    for (let i = 0; i < 3; i++) expect((await sql<{ n: number }>`select ${i}::int4 * 2 as n`.execute(trx)).rows[0]!.n).toBe(i * 2);
    return (await sql<{ statement: string }>`select statement from pg_prepared_statements where from_sql = false`.execute(trx)).rows.map(
      (r) => r.statement,
    );
  });

describe.skipIf(!process.env.TEST_DATABASE_URL)('DATABASE_NAMED_STATEMENTS on Postgres', () => {
  it('on by default: the server opens a pool that prepares each query text', async () => {
    const own = await openDatabase(loadConfig({ DATABASE_URL: handle.url! }));
    try {
      expect((await preparedOnThisConnection(own.db)).filter((s) => s.startsWith('select $1::int4 * 2'))).toHaveLength(1);
    } finally {
      await own.close();
    }
  });

  it('off (for PgBouncer in transaction mode before 1.21): every query goes unnamed, and nothing is prepared', async () => {
    const own = await openDatabase(loadConfig({ DATABASE_URL: handle.url!, DATABASE_NAMED_STATEMENTS: '0' }));
    try {
      expect(await preparedOnThisConnection(own.db)).toEqual([]);
      // Reads, writes and transactions work the same.
      await sql`create table t_unnamed (a int)`.execute(own.db);
      await own.db.transaction().execute((trx) => sql`insert into t_unnamed values (${7})`.execute(trx));
      expect((await sql<{ a: number }>`select a from t_unnamed`.execute(own.db)).rows).toEqual([{ a: 7 }]);
    } finally {
      await own.close();
    }
  });
});

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
