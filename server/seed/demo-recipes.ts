import type { Db } from '../db/index.js';
import type { HouseholdMeasure } from '../nutrition/measures.js';
import { createRecipeInput } from '../nutrition/recipes-schema.js';
import { foodIdsBySourceRef } from '../nutrition/recipes-repo.js';
import { saveRecipe } from '../nutrition/recipes.js';

/**
 * The demo's recipes: a dozen dishes an Indian household eats every week, built from IFCT 2017's
 * raw foods by their IFCT codes (the demo loads IFCT first: demo-foods.ts). Weights are a home
 * cook's for a family pot, ours: raw weights as they go into the pot, the cooked weight as the pot
 * weighs when done (water taken up by dal, rice and dough; lost from a dry sabzi), a serving as a
 * katori, a roti or two idlis. IFCT has no table salt or water, so the water shows only in the
 * cooked weight and the sodium counts only what the foods carry. IFCT has no curd either: curd
 * rice uses whole cow's milk, which curd is set from gram for gram. Curry leaves and lemon juice,
 * which the import leaves out (their IFCT values fail the sanity rules), are left out of the dishes
 * too: a few grams, little to count.
 *
 * Each recipe has a stable reference (`source_ref` 'demo-recipe:<key>', source 'clinic'), so the
 * demo's plans and journal find it (`demoRecipeRef`), and seeding twice changes nothing.
 */

type DemoRecipe = {
  key: string;
  name: string;
  nameHi: string;
  aliases: string[];
  /** [IFCT code, raw grams] */
  ingredients: [string, number][];
  cookedGrams: number;
  servingGrams: number;
  portions: Partial<Record<HouseholdMeasure, number>>;
};

const KATORI = 150;

export const DEMO_RECIPES: readonly DemoRecipe[] = [
  {
    key: 'toor-dal',
    name: 'Toor dal tadka',
    nameHi: 'अरहर दाल तड़का',
    aliases: ['dal', 'arhar dal', 'toor dal', 'dal tadka'],
    // 100 g dal cooked in ~450 ml water: a pressure-cooked dal comes out near 6× its dry weight with the tadka.
    ingredients: [
      ['B021', 100],
      ['G017', 40],
      ['D076', 60],
      ['T013', 10],
      ['G025', 2],
      ['G033', 1],
      ['G008', 5],
      ['G009', 5],
    ],
    cookedGrams: 600,
    servingGrams: KATORI,
    portions: { katori: KATORI, bowl: 250, ladle: 60 },
  },
  {
    key: 'rice',
    name: 'Rice, cooked (plain)',
    nameHi: 'पके चावल',
    aliases: ['chawal', 'steamed rice', 'boiled rice', 'bhaat'],
    // Milled rice takes up about twice its weight in water when cooked by absorption: 100 g → 300 g.
    ingredients: [['A015', 100]],
    cookedGrams: 300,
    servingGrams: KATORI,
    portions: { katori: KATORI, bowl: 250, plate: 250, tbsp: 15 },
  },
  {
    key: 'roti',
    name: 'Roti (phulka)',
    nameHi: 'रोटी',
    aliases: ['chapati', 'phulka', 'fulka'],
    // 120 g atta and ~75 ml water make four rotis of ~40 g once cooked on the tawa (some water leaves as steam).
    ingredients: [['A019', 120]],
    cookedGrams: 160,
    servingGrams: 40,
    portions: { roti: 40, piece: 40 },
  },
  {
    key: 'aloo-gobi',
    name: 'Aloo gobi sabzi',
    nameHi: 'आलू गोभी',
    aliases: ['sabzi', 'aloo gobhi', 'potato cauliflower'],
    // A dry sabzi loses water in the pan: 609 g raw come to ~520 g.
    ingredients: [
      ['F006', 200],
      ['D036', 250],
      ['G017', 60],
      ['D076', 80],
      ['T006', 15],
      ['G033', 2],
      ['G025', 2],
    ],
    cookedGrams: 520,
    servingGrams: 100,
    portions: { katori: 100, tbsp: 20, plate: 200 },
  },
  {
    key: 'poha',
    name: 'Kanda poha',
    nameHi: 'पोहा',
    aliases: ['poha', 'aval', 'beaten rice'],
    // Rinsed flakes take up about their own weight in water: 100 g poha with the onion and potato make ~330 g.
    ingredients: [
      ['A011', 100],
      ['G017', 50],
      ['F007', 60],
      ['T005', 10],
      ['H013', 2],
      ['G033', 1],
      ['G008', 4],
    ],
    cookedGrams: 330,
    servingGrams: KATORI,
    portions: { katori: KATORI, plate: 200 },
  },
  {
    key: 'idli',
    name: 'Idli',
    nameHi: 'इडली',
    aliases: ['idly', 'idlis'],
    // 150 g rice and 50 g urad ground with water and steamed: about 12 idlis of 40 g.
    ingredients: [
      ['A015', 150],
      ['B003', 50],
    ],
    cookedGrams: 480,
    servingGrams: 80,
    portions: { piece: 40, plate: 160 },
  },
  {
    key: 'sambar',
    name: 'Sambar',
    nameHi: 'सांभर',
    aliases: ['sambhar', 'sambaar'],
    // A thin dal with vegetables and tamarind: 60 g dal and 250 g vegetables in ~450 ml water make ~700 g.
    ingredients: [
      ['B021', 60],
      ['D046', 50],
      ['D009', 80],
      ['D076', 60],
      ['G017', 40],
      ['E064', 10],
      ['T005', 8],
      ['H013', 2],
      ['G033', 1],
    ],
    cookedGrams: 700,
    servingGrams: KATORI,
    portions: { katori: KATORI, bowl: 250, ladle: 60 },
  },
  {
    key: 'khichdi',
    name: 'Moong dal khichdi',
    nameHi: 'खिचड़ी',
    aliases: ['khichri', 'khichadi'],
    // Rice and moong dal cooked soft take up about 3.3× their weight in water: 150 g → ~650 g.
    ingredients: [
      ['A015', 100],
      ['B010', 50],
      ['T013', 10],
      ['G025', 2],
      ['G033', 1],
    ],
    cookedGrams: 650,
    servingGrams: 200,
    portions: { katori: KATORI, bowl: 250, plate: 300 },
  },
  {
    key: 'rajma',
    name: 'Rajma masala',
    nameHi: 'राजमा',
    aliases: ['rajmah', 'kidney beans curry'],
    // 100 g dry beans, soaked and pressure-cooked, with an onion-tomato masala: ~550 g.
    ingredients: [
      ['B020', 100],
      ['G017', 60],
      ['D076', 100],
      ['G014', 5],
      ['G011', 5],
      ['T005', 12],
      ['G025', 2],
    ],
    cookedGrams: 550,
    servingGrams: KATORI,
    portions: { katori: KATORI, bowl: 250 },
  },
  {
    key: 'upma',
    name: 'Rava upma',
    nameHi: 'उपमा',
    aliases: ['upma', 'uppittu', 'sooji upma'],
    // 100 g roasted rava cooked in ~250 ml water with vegetables: ~420 g.
    ingredients: [
      ['A022', 100],
      ['G017', 40],
      ['D061', 30],
      ['F002', 30],
      ['T005', 10],
      ['H013', 2],
      ['G008', 4],
    ],
    cookedGrams: 420,
    servingGrams: KATORI,
    portions: { katori: KATORI, plate: 200 },
  },
  {
    key: 'curd-rice',
    name: 'Curd rice',
    nameHi: 'दही चावल',
    aliases: ['thayir sadam', 'dahi chawal', 'mosaranna'],
    // 80 g rice cooked soft (~240 g) mixed with 200 g curd and a tempering: ~450 g.
    ingredients: [
      ['A015', 80],
      ['L002', 200],
      ['T005', 5],
      ['H013', 1],
      ['G008', 3],
      ['G014', 3],
    ],
    cookedGrams: 450,
    servingGrams: 200,
    portions: { katori: KATORI, bowl: 250 },
  },
  {
    key: 'chana-masala',
    name: 'Chana masala',
    nameHi: 'छोले',
    aliases: ['chole', 'chhole', 'chickpea curry'],
    // 100 g dry chana, soaked and pressure-cooked, in an onion-tomato masala: ~500 g.
    ingredients: [
      ['B002', 100],
      ['G017', 60],
      ['D076', 100],
      ['G014', 5],
      ['G011', 5],
      ['T005', 12],
      ['G009', 5],
    ],
    cookedGrams: 500,
    servingGrams: KATORI,
    portions: { katori: KATORI, bowl: 250 },
  },
  {
    key: 'palak-paneer',
    name: 'Palak paneer',
    nameHi: 'पालक पनीर',
    aliases: ['saag paneer', 'spinach paneer'],
    // 300 g spinach wilts to a third: with paneer and the masala, ~380 g.
    ingredients: [
      ['C033', 300],
      ['L003', 100],
      ['G017', 50],
      ['D076', 50],
      ['T013', 10],
      ['G011', 5],
      ['G014', 5],
      ['G025', 2],
    ],
    cookedGrams: 380,
    servingGrams: KATORI,
    portions: { katori: KATORI, bowl: 250 },
  },
];

/** The `source_ref` a demo recipe is found by. */
export const demoRecipeRef = (key: string) => `demo-recipe:${key}`;

/**
 * Adds the demo recipes (those not there already), each through the same rules as a dietitian's
 * (recipes.ts): values from the ingredients over the cooked weight. Needs IFCT's foods loaded.
 * Returns the recipe ids by key.
 */
export async function seedDemoRecipes(db: Db, opts: { now: Date; createdBy?: number | null }): Promise<Map<string, number>> {
  const codes = [...new Set(DEMO_RECIPES.flatMap((r) => r.ingredients.map(([code]) => code)))];
  const foods = await foodIdsBySourceRef(db, 'ifct2017', codes);
  const missing = codes.filter((c) => !foods.has(c));
  if (missing.length > 0) throw new Error(`The demo recipes need IFCT 2017's foods ${missing.join(', ')}: load IFCT first (demo-foods.ts)`);
  const existing = await foodIdsBySourceRef(
    db,
    'clinic',
    DEMO_RECIPES.map((r) => demoRecipeRef(r.key)),
  );
  const ids = new Map<string, number>();
  for (const recipe of DEMO_RECIPES) {
    const ref = demoRecipeRef(recipe.key);
    const have = existing.get(ref);
    if (have !== undefined) {
      ids.set(recipe.key, have);
      continue;
    }
    const input = createRecipeInput.parse({
      name: recipe.name,
      nameHi: recipe.nameHi,
      aliases: recipe.aliases,
      ingredients: recipe.ingredients.map(([code, grams]) => ({ foodId: foods.get(code), grams })),
      cookedGrams: recipe.cookedGrams,
      servingGrams: recipe.servingGrams,
      portions: Object.entries(recipe.portions).map(([unit, grams]) => ({ unit, grams })),
    });
    ids.set(recipe.key, await saveRecipe(db, input, { sourceRef: ref, createdBy: opts.createdBy ?? null, now: opts.now }));
  }
  return ids;
}
