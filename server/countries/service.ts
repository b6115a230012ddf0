import type { Db } from '../db/index.js';
import * as repo from './repo.js';
import type { Country } from './schema.js';

/*
 * Sorted here rather than in SQL: the database's collation differs between
 * PGlite and a Postgres cluster (e.g. where 'Åland Islands' lands), and the
 * list must read the same on both. ~250 rows, so the cost is nothing.
 */
const byName = new Intl.Collator('en', { sensitivity: 'base' });

export async function listCountries(db: Db): Promise<Country[]> {
  const rows = await repo.listCountries(db);
  return rows.sort((a, b) => byName.compare(a.name, b.name) || a.id - b.id);
}
