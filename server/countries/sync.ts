import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { countCountries, upsertCountries } from './repo.js';

countries.registerLocale(en);

/** The ISO 3166-1 list from i18n-iso-countries, English short names, keyed by numeric code. */
export function isoCountries() {
  const names = countries.getNames('en', { select: 'official' });
  return Object.entries(names)
    .map(([alpha2, name]) => ({ id: Number(countries.alpha2ToNumeric(alpha2)), alpha2, name }))
    .filter((c) => Number.isInteger(c.id) && c.id > 0)
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/**
 * Reference data, not a migration: upserted at start so a package update
 * (a renamed or new country) reaches existing databases. Cheap when unchanged.
 */
export async function syncCountries(db: Kysely<Database>): Promise<number> {
  const list = isoCountries();
  if ((await countCountries(db)) === list.length) return 0;
  await upsertCountries(db, list);
  return list.length;
}
