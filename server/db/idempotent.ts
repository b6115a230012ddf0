import { conflict } from '../errors.js';

/**
 * A create a client may send twice (a phone retrying on a bad network, a
 * double tap) carries a key the client made, and a unique constraint on
 * (owner, key) keeps one row per key. This is the one way to write such a
 * create:
 *
 * - `insert` is `insert … on conflict (owner, key) do nothing returning …`:
 *   it yields the new row, or undefined when the key was used already. On
 *   Postgres a second insert racing the first waits for the first to commit
 *   and then does nothing, so concurrent repeats never make a second row.
 * - `existing` reads the row the key made first (in READ COMMITTED each
 *   statement sees what committed before it, so the winner's row is there).
 *
 * `created` tells the caller whether to do the create's side effects (events,
 * mail) and which status to answer: 201 for the first, 200 for a repeat.
 * Run it inside the transaction that holds the side effects.
 */
export async function insertOnce<Row>(steps: {
  insert: () => Promise<Row | undefined>;
  existing: () => Promise<Row | undefined>;
}): Promise<{ row: Row; created: boolean }> {
  const inserted = await steps.insert();
  if (inserted !== undefined) return { row: inserted, created: true };
  const first = await steps.existing();
  // Only if the first row was deleted between the two statements.
  if (first === undefined) throw conflict('That request changed while it was being repeated. Send it again.');
  return { row: first, created: false };
}
