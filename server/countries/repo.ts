import type { Db } from '../db/index.js';

export function listCountries(db: Db) {
  return db.selectFrom('countries').select(['id', 'name']).execute();
}

export function findCountry(db: Db, id: number) {
  return db.selectFrom('countries').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
}

export async function countCountries(db: Db): Promise<number> {
  const row = await db
    .selectFrom('countries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Inserts the list, renaming the countries already there (sync.ts, at start). */
export async function upsertCountries(db: Db, list: { id: number; alpha2: string; name: string }[]): Promise<void> {
  await db
    .insertInto('countries')
    .values(list)
    .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ alpha2: eb.ref('excluded.alpha2'), name: eb.ref('excluded.name') })))
    .execute();
}
