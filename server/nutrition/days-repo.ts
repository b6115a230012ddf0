import type { Db } from '../db/index.js';
import type { Nutrients } from './nutrients.js';

/** The queries behind what a journal day adds up to: `db` or `trx` first. */

const itemRows = (db: Db) =>
  db
    .selectFrom('meal_entry_items as i')
    .innerJoin('foods as f', 'f.id', 'i.food_id')
    .leftJoin('users as u', 'u.id', 'i.added_by')
    .select([
      'i.entry_id',
      'i.position',
      'i.food_id',
      'i.quantity',
      'i.unit',
      'i.grams',
      'i.added_by',
      'u.role as added_by_role',
      'f.name',
      'f.name_hi',
      'f.kind',
      'f.per_100g',
    ]);
export type ItemRow = Awaited<ReturnType<typeof itemsOfEntries>>[number];

/** The foods of these journal entries, in each entry's order. */
export function itemsOfEntries(db: Db, entryIds: readonly number[]) {
  if (entryIds.length === 0) return Promise.resolve([]);
  return itemRows(db)
    .where('i.entry_id', 'in', [...entryIds])
    .orderBy('i.entry_id')
    .orderBy('i.position')
    .execute();
}

/** Replaces an entry's foods with `items` (positions from 0). */
export async function replaceItems(
  trx: Db,
  entryId: number,
  items: readonly { food_id: number; quantity: number; unit: string; grams: number }[],
  addedBy: number,
  at: Date,
) {
  await trx.deleteFrom('meal_entry_items').where('entry_id', '=', entryId).execute();
  if (items.length === 0) return;
  await trx
    .insertInto('meal_entry_items')
    .values(items.map((item, position) => ({ entry_id: entryId, position, ...item, added_by: addedBy, created_at: at })))
    .execute();
}

/**
 * Per client and day of [from, to]: the meals, and the foods eaten with their grams and values per
 * 100 g (meal_entries_client_day_idx, then the items' primary key).
 */
export async function eatenBetween(db: Db, clientIds: readonly number[], from: string, to: string) {
  if (clientIds.length === 0) return { meals: [], items: [] };
  const [meals, items] = await Promise.all([
    db
      .selectFrom('meal_entries')
      .select(['id', 'client_id', 'eaten_on'])
      .where('client_id', 'in', [...clientIds])
      .where('eaten_on', '>=', from)
      .where('eaten_on', '<=', to)
      .execute(),
    db
      .selectFrom('meal_entries as e')
      .innerJoin('meal_entry_items as i', 'i.entry_id', 'e.id')
      .innerJoin('foods as f', 'f.id', 'i.food_id')
      .select(['e.client_id', 'e.eaten_on', 'i.entry_id', 'i.grams', 'f.per_100g'])
      .where('e.client_id', 'in', [...clientIds])
      .where('e.eaten_on', '>=', from)
      .where('e.eaten_on', '<=', to)
      .execute(),
  ]);
  return { meals, items };
}

/** A client's daily targets and whether the client sees numbers (every client does until a dietitian says otherwise). */
export async function targetsOf(db: Db, clientIds: readonly number[]) {
  if (clientIds.length === 0) return new Map<number, { targets: Nutrients; showNumbers: boolean }>();
  const rows = await db
    .selectFrom('nutrition_targets')
    .select(['client_id', 'targets', 'show_numbers'])
    .where('client_id', 'in', [...clientIds])
    .execute();
  return new Map(rows.map((r) => [r.client_id, { targets: r.targets as Nutrients, showNumbers: r.show_numbers }]));
}
