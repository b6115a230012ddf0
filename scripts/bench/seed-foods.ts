import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/index.js';

/**
 * A food library of `count` dishes for the food search bench, written straight to the tables:
 * names like "Kerala fish curry" from a region, a food and a way of cooking it, a Hindi name in
 * Devanagari where the food and the way have one, an alias from the food's other common name
 * ("toor" → "arhar", "aloo" → "potato"), and two household portions each.
 */
const FOODS: [string, string | null, string | null][] = [
  ['paneer', 'पनीर', 'cottage cheese'],
  ['toor dal', 'अरहर दाल', 'arhar dal'],
  ['moong dal', 'मूंग दाल', 'green gram dal'],
  ['masoor dal', 'मसूर दाल', 'red lentil'],
  ['chana', 'चना', 'chickpea'],
  ['rajma', 'राजमा', 'kidney bean'],
  ['aloo', 'आलू', 'potato'],
  ['aloo gobi', 'आलू गोभी', 'potato cauliflower'],
  ['bhindi', 'भिंडी', 'okra'],
  ['palak', 'पालक', 'spinach'],
  ['baingan', 'बैंगन', 'brinjal'],
  ['lauki', 'लौकी', 'bottle gourd'],
  ['karela', 'करेला', 'bitter gourd'],
  ['methi', 'मेथी', 'fenugreek'],
  ['matar', 'मटर', 'green peas'],
  ['gobi', 'गोभी', 'cauliflower'],
  ['rice', 'चावल', 'chawal'],
  ['roti', 'रोटी', 'chapati'],
  ['paratha', 'पराठा', null],
  ['poha', 'पोहा', 'flattened rice'],
  ['upma', 'उपमा', 'rava upma'],
  ['idli', 'इडली', null],
  ['dosa', 'डोसा', 'dosai'],
  ['masala dosa', 'मसाला डोसा', null],
  ['sambar', 'सांभर', null],
  ['khichdi', 'खिचड़ी', null],
  ['curd', 'दही', 'dahi'],
  ['ragi', 'रागी', 'finger millet'],
  ['jowar', 'ज्वार', 'sorghum'],
  ['bajra', 'बाजरा', 'pearl millet'],
  ['chicken', 'चिकन', 'murgh'],
  ['mutton', 'मटन', 'goat meat'],
  ['fish', 'मछली', 'machli'],
  ['egg', 'अंडा', 'anda'],
  ['prawn', 'झींगा', 'jhinga'],
  ['mushroom', 'मशरूम', 'khumb'],
  ['soya chunks', 'सोया', 'soy nuggets'],
  ['besan', 'बेसन', 'gram flour'],
  ['suji', 'सूजी', 'semolina'],
  ['oats', null, null],
  ['mango', 'आम', 'aam'],
  ['banana', 'केला', 'kela'],
  ['guava', 'अमरूद', 'amrood'],
  ['papaya', 'पपीता', null],
  ['peanut', 'मूंगफली', 'groundnut'],
  ['cashew', 'काजू', 'kaju'],
  ['coconut', 'नारियल', 'nariyal'],
  ['sweet potato', 'शकरकंद', 'shakarkand'],
  ['tofu', null, 'bean curd'],
  ['sprouts', 'अंकुरित', 'sprouted moong'],
];
const WAYS: [string, string | null][] = [
  ['curry', 'करी'],
  ['masala', 'मसाला'],
  ['fry', 'फ्राई'],
  ['sabzi', 'सब्ज़ी'],
  ['tikka', 'टिक्का'],
  ['pulao', 'पुलाव'],
  ['raita', 'रायता'],
  ['soup', 'सूप'],
  ['salad', 'सलाद'],
  ['chaat', 'चाट'],
  ['tadka', 'तड़का'],
  ['roasted', null],
  ['steamed', null],
  ['stir fry', null],
  ['gravy', null],
  ['dry', null],
  ['kebab', 'कबाब'],
  ['cutlet', null],
  ['stuffed', null],
  ['halwa', 'हलवा'],
];
const REGIONS = [
  'Punjabi',
  'Gujarati',
  'Bengali',
  'Kerala',
  'Udupi',
  'Hyderabadi',
  'Rajasthani',
  'Goan',
  'Chettinad',
  'Kashmiri',
  'Bihari',
  'Awadhi',
];

const CHUNK = 500;

export async function seedBenchFoods(db: Kysely<Database>, count: number): Promise<{ names: number; usedIds: number[] }> {
  const foods = [];
  for (let i = 0; foods.length < count; i++) {
    const [food, foodHi, alias] = FOODS[i % FOODS.length]!;
    const [way, wayHi] = WAYS[Math.floor(i / FOODS.length) % WAYS.length]!;
    const region = REGIONS[Math.floor(i / (FOODS.length * WAYS.length)) % REGIONS.length]!;
    const round = Math.floor(i / (FOODS.length * WAYS.length * REGIONS.length));
    const suffix = round > 0 ? ` (${round + 1})` : '';
    const protein = 2 + (i % 20);
    const carbohydrate = 5 + ((i * 7) % 50);
    const fat = 1 + ((i * 3) % 15);
    foods.push({
      name: `${region} ${food} ${way}${suffix}`,
      nameHi: foodHi && wayHi ? `${foodHi} ${wayHi}` : null,
      alias: alias ? `${alias} ${way}${suffix}` : null,
      per100g: {
        energyKcal: 4 * protein + 4 * carbohydrate + 9 * fat,
        proteinG: protein,
        carbohydrateG: carbohydrate,
        fatG: fat,
        ironMg: (i % 40) / 10,
      },
    });
  }
  let names = 0;
  const ids: number[] = [];
  for (let at = 0; at < foods.length; at += CHUNK) {
    const part = foods.slice(at, at + CHUNK);
    const rows = await db
      .insertInto('foods')
      .values(
        part.map((f) => ({
          name: f.name,
          name_hi: f.nameHi,
          food_group: 'dishes',
          source: 'clinic' as const,
          per_100g: JSON.stringify(f.per100g),
        })),
      )
      .returning('id')
      .execute();
    const nameRows = part.flatMap((f, i) => [
      { food_id: rows[i]!.id, name: f.name, lang: 'en' as const, is_alias: false },
      ...(f.nameHi ? [{ food_id: rows[i]!.id, name: f.nameHi, lang: 'hi' as const, is_alias: false }] : []),
      ...(f.alias ? [{ food_id: rows[i]!.id, name: f.alias, lang: 'en' as const, is_alias: true }] : []),
    ]);
    await db
      .insertInto('food_names')
      .values(nameRows)
      .onConflict((oc) => oc.doNothing())
      .execute();
    await db
      .insertInto('food_portions')
      .values(
        rows.flatMap((r) => [
          { food_id: r.id, unit: 'katori', grams: 150 },
          { food_id: r.id, unit: 'plate', grams: 250 },
        ]),
      )
      .execute();
    names += nameRows.length;
    ids.push(...rows.map((r) => r.id));
  }
  // The searcher's recent foods: every 200th.
  return { names, usedIds: ids.filter((_, i) => i % 200 === 0).slice(0, 50) };
}
