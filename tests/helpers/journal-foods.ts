import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.js';
import type { Nutrients } from '../../server/nutrition/nutrients.js';

/**
 * A few foods for journal tests, written straight to the library (not the IFCT import): values per
 * 100 g as a dietitian would enter them, each with its own household portions.
 */
export const JOURNAL_TEST_FOODS = {
  roti: {
    name: 'Test roti',
    group: 'dishes',
    per100g: { energyKcal: 264, proteinG: 9.6, carbohydrateG: 46.4, fatG: 3.7, fibreG: 9.2, ironMg: 3.3 },
    portions: { roti: 40, piece: 40 },
  },
  dal: {
    name: 'Test arhar dal, cooked',
    group: 'dishes',
    per100g: { energyKcal: 116, proteinG: 6.8, carbohydrateG: 17.1, fatG: 2.4, fibreG: 2.9, ironMg: 1.1 },
    portions: { katori: 150, ladle: 60 },
  },
  rice: {
    name: 'Test rice, cooked',
    group: 'dishes',
    // Iron not known: a day's iron must say one item did not know it.
    per100g: { energyKcal: 123, proteinG: 2.6, carbohydrateG: 27.6, fatG: 0.3, fibreG: 0.4 },
    portions: { katori: 130 },
  },
  paneer: {
    name: 'Test paneer',
    group: 'milk',
    per100g: { energyKcal: 258, proteinG: 18.9, carbohydrateG: 6.3, fatG: 17.6, fibreG: 0, ironMg: 0.2 },
    portions: { piece: 20 },
  },
} satisfies Record<string, { name: string; group: string; per100g: Nutrients; portions: Record<string, number> }>;
export type JournalTestFood = keyof typeof JOURNAL_TEST_FOODS;

/** Stores the test foods under a fresh suffix (so two files sharing a template never collide); their ids by key. */
export async function seedJournalFoods(db: Kysely<Database>, suffix = String(Date.now() % 1e8)) {
  const ids = {} as Record<JournalTestFood, number>;
  for (const [key, food] of Object.entries(JOURNAL_TEST_FOODS) as [JournalTestFood, (typeof JOURNAL_TEST_FOODS)[JournalTestFood]][]) {
    const name = `${food.name} ${suffix}`;
    const row = await db
      .insertInto('foods')
      .values({ name, food_group: food.group, source: 'clinic', per_100g: JSON.stringify(food.per100g) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('food_names').values({ food_id: row.id, name, lang: 'en' }).execute();
    await db
      .insertInto('food_portions')
      .values(Object.entries(food.portions).map(([unit, grams]) => ({ food_id: row.id, unit, grams })))
      .execute();
    ids[key] = row.id;
  }
  return ids;
}

/** Sets a client's targets and whether the client sees numbers. */
export async function setJournalTargets(db: Kysely<Database>, clientId: number, targets: Nutrients, showNumbers = true) {
  await db
    .insertInto('nutrition_targets')
    .values({ client_id: clientId, targets: JSON.stringify(targets), show_numbers: showNumbers })
    .onConflict((oc) => oc.column('client_id').doUpdateSet({ targets: JSON.stringify(targets), show_numbers: showNumbers }))
    .execute();
}
