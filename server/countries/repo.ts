import type { Db } from '../db/index.js';

export function listCountries(db: Db) {
  return db.selectFrom('countries').select(['id', 'name']).execute();
}

export function findCountry(db: Db, id: number) {
  return db.selectFrom('countries').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
}
