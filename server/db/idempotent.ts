import { conflict, unprocessable } from '../errors.js';

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
 * - `sameAs` checks that the first row was made from the same request
 *   (sameRequest below): a key sent again with other details is refused, not
 *   answered with a first result that is not what was asked.
 *
 * `created` tells the caller whether to do the create's side effects (events,
 * mail) and which status to answer: 201 for the first, 200 for a repeat.
 * Run it inside the transaction that holds the side effects.
 */
export async function insertOnce<Row>(steps: {
  insert: () => Promise<Row | undefined>;
  existing: () => Promise<Row | undefined>;
  sameAs?: (first: Row) => void;
}): Promise<{ row: Row; created: boolean }> {
  const inserted = await steps.insert();
  if (inserted !== undefined) return { row: inserted, created: true };
  const first = await steps.existing();
  // Only if the first row was deleted between the two statements.
  if (first === undefined) throw conflict('That request changed while it was being repeated. Send it again.');
  steps.sameAs?.(first);
  return { row: first, created: false };
}

/**
 * What a repeat is compared on, field by field (named as the request names
 * them): the value the first request left in its row, and the value this
 * request sent. A field the server fills in when it is left out (a time, a
 * default) is listed only when this request sent it.
 */
export type RepeatFields = Record<string, readonly [first: unknown, sent: unknown]>;

/** Dates as instants, absent as null, lists and objects by their JSON: what a body means, not how it was typed. */
const comparable = (value: unknown) => JSON.stringify(value ?? null, (_, v) => (v === undefined ? null : v));

/** The names of the fields whose first and sent values differ. */
export function differingFields(fields: RepeatFields): string[] {
  return Object.entries(fields)
    .filter(([, [first, sent]]) => comparable(first) !== comparable(sent))
    .map(([name]) => name);
}

/**
 * Refuses (422) a repeat of an idempotency key whose details differ from the
 * request that first used it, naming the fields, as Stripe does: answering the
 * first result would tell the client that what it sent now was stored.
 */
export function sameRequest(keyName: string, fields: RepeatFields, advice = 'Send it with a new key.'): void {
  const differing = differingFields(fields);
  if (differing.length === 0) return;
  const message = `This ${keyName} was already used with different details (${differing.join(', ')}). ${advice}`;
  throw unprocessable(
    message,
    Object.fromEntries(differing.map((name) => [name, [`Differs from the first request with this ${keyName}`]])),
  );
}
