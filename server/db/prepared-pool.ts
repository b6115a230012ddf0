import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/** feature_not_supported: what Postgres answers when a prepared statement's result columns changed. */
const STALE_PLAN = '0A000';

/** Kysely's transaction statements (begin, commit, rollback, savepoints): never prepared. */
const TRANSACTION_CONTROL = /^(begin|commit|rollback|start transaction|savepoint|release)\b/i;

/** Statement names given out per process; texts beyond it (generated IN lists and the like) stay unnamed. */
export const MAX_NAMED_STATEMENTS = 2_000;

/**
 * Kysely's pg driver sends every query unnamed, so Postgres parses and plans
 * its text on every call. This pool gives each distinct query text a name:
 * pg then prepares it once per connection and afterwards only binds and runs
 * it, as a hand-written server does with named statements. Transaction
 * statements (begin, commit, savepoints) have nothing to bind or plan, and go
 * as one simple-protocol message each, also as such a server sends them: three
 * protocol messages fewer for the client to write and the server to read in
 * each (a like toggle has two). Texts are Kysely's compiled SQL (values always
 * travel as parameters), so a few hundred names
 * cover the app; the bound keeps a stream of distinct texts (IN lists of every
 * length) from growing each connection's statement cache without end.
 * Postgres re-plans a prepared statement by itself when a table it reads
 * changes, but refuses one whose result columns changed ("cached plan must not
 * change result type", when a newer instance migrated the schema under this
 * one): that query fails once, and its text is prepared afresh under a new
 * name on its next run.
 */
export function withNamedStatements(pool: Pick<pg.Pool, 'connect' | 'end'>, maxNames = MAX_NAMED_STATEMENTS) {
  const names = new Map<string, string>();
  let issued = 0;
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined && names.size < maxNames) {
      name = `k${++issued}`;
      names.set(text, name);
    }
    return name;
  };
  const named: PostgresPool & { namedCount(): number } = {
    async connect() {
      const client = await pool.connect();
      // Kysely hands each query a fresh parameter array: it is passed on as it is.
      const query = async (text: string, values: unknown[]) => {
        // Nothing to bind or plan: one message of the simple protocol, as a hand-written server sends it.
        if (values.length === 0 && TRANSACTION_CONTROL.test(text)) return client.query(text);
        const name = nameOf(text);
        if (name === undefined) return client.query(text, values);
        try {
          return await client.query({ name, text, values });
        } catch (err) {
          if ((err as { code?: string }).code === STALE_PLAN && names.get(text) === name) names.set(text, `k${++issued}`);
          throw err;
        }
      };
      return { query, release: () => client.release() } as unknown as PostgresPoolClient;
    },
    end: () => pool.end(),
    namedCount: () => names.size,
  };
  return named;
}
