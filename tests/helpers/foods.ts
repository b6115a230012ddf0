import type { Db } from '../../server/db/index.js';

/**
 * A small food library for tests, written straight into the tables (not through an importer, so a
 * test of search or the console does not depend on one): a few foods Indian kitchens use, with
 * Hindi names and the aliases people search by. Values per 100 g are realistic and add up.
 */
export type TestFood = {
  name: string;
  nameHi?: string;
  aliases?: string[];
  group: string;
  per100g: Record<string, number>;
  portions?: { unit: string; grams: number }[];
  archived?: boolean;
};

export const TEST_FOODS = {
  paneer: {
    name: 'Paneer',
    nameHi: 'पनीर',
    aliases: ['cottage cheese'],
    group: 'milk',
    per100g: { energyKcal: 258, proteinG: 18.9, carbohydrateG: 1.2, fatG: 19.8, calciumMg: 476 },
    portions: [{ unit: 'piece', grams: 25 }],
  },
  palakPaneer: {
    name: 'Palak paneer',
    nameHi: 'पालक पनीर',
    group: 'dishes',
    per100g: { energyKcal: 135, proteinG: 6.5, carbohydrateG: 5.2, fatG: 9.8 },
    portions: [{ unit: 'katori', grams: 150 }],
  },
  redGramDal: {
    name: 'Red gram, dal',
    nameHi: 'अरहर दाल',
    aliases: ['arhar dal', 'toor dal', 'tur dal', 'pigeon pea, split'],
    group: 'pulses',
    per100g: { energyKcal: 335, proteinG: 21.7, carbohydrateG: 55.2, fatG: 1.6, fibreG: 9.1, ironMg: 3.9 },
    portions: [{ unit: 'katori', grams: 30 }],
  },
  redGramWhole: {
    name: 'Red gram, whole',
    aliases: ['arhar', 'toor', 'tuvar'],
    group: 'pulses',
    per100g: { energyKcal: 318, proteinG: 20.4, carbohydrateG: 47.8, fatG: 1.5, fibreG: 22.8 },
  },
  atta: {
    name: 'Wheat flour, atta',
    nameHi: 'आटा',
    aliases: ['atta', 'whole wheat flour'],
    group: 'cereals',
    per100g: { energyKcal: 320, proteinG: 10.6, carbohydrateG: 64.2, fatG: 1.5, fibreG: 11.4, ironMg: 4.1 },
    portions: [{ unit: 'roti', grams: 30 }],
  },
  attaBiscuit: {
    name: 'Atta biscuit',
    group: 'cereals',
    per100g: { energyKcal: 460, proteinG: 7.5, carbohydrateG: 68, fatG: 17.5, fibreG: 3 },
  },
  peanut: {
    name: 'Peanut',
    nameHi: 'मूंगफली',
    aliases: ['groundnut', 'moongphali'],
    group: 'nuts-oilseeds',
    per100g: { energyKcal: 567, proteinG: 25.8, carbohydrateG: 16.1, fatG: 49.2, fibreG: 8.5 },
  },
  peas: {
    name: 'Peas, green',
    nameHi: 'मटर',
    aliases: ['matar'],
    group: 'other-vegetables',
    per100g: { energyKcal: 81, proteinG: 5.4, carbohydrateG: 14.5, fatG: 0.4, fibreG: 5.1 },
  },
  chickpeaWhole: {
    name: 'Chickpea, whole',
    nameHi: 'काबुली चना',
    aliases: ['kabuli chana'],
    group: 'pulses',
    per100g: { energyKcal: 335, proteinG: 18.8, carbohydrateG: 45.9, fatG: 6, fibreG: 16.2 },
  },
  chickpeaFlour: {
    name: 'Chickpea flour (besan)',
    nameHi: 'बेसन',
    aliases: ['besan', 'gram flour'],
    group: 'pulses',
    per100g: { energyKcal: 372, proteinG: 22.4, carbohydrateG: 55, fatG: 6.7, fibreG: 10.8 },
  },
  oldVanaspati: {
    name: 'Vanaspati (old entry)',
    group: 'oils-fats',
    per100g: { energyKcal: 900, fatG: 100 },
    archived: true,
  },
} satisfies Record<string, TestFood>;

export type TestFoodKey = keyof typeof TEST_FOODS;

/** Writes the foods; their ids by key. */
export async function seedFoods<K extends string>(db: Db, foods: Record<K, TestFood>): Promise<Record<K, number>> {
  const ids = {} as Record<K, number>;
  for (const [key, food] of Object.entries(foods) as [K, TestFood][]) {
    const { id } = await db
      .insertInto('foods')
      .values({
        name: food.name,
        name_hi: food.nameHi ?? null,
        food_group: food.group,
        source: 'clinic',
        per_100g: JSON.stringify(food.per100g),
        archived_at: food.archived ? new Date() : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const names = [food.name, ...(food.nameHi ? [food.nameHi] : []), ...(food.aliases ?? [])];
    await db
      .insertInto('food_names')
      .values(
        names.map((name, i) => ({
          food_id: id,
          name,
          lang: /[\u0900-\u097F]/.test(name) ? 'hi' : 'en',
          is_alias: i > (food.nameHi ? 1 : 0),
        })),
      )
      .execute();
    if (food.portions?.length) {
      await db
        .insertInto('food_portions')
        .values(food.portions.map((p) => ({ food_id: id, unit: p.unit, grams: p.grams })))
        .execute();
    }
    ids[key] = id;
  }
  return ids;
}
