import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NUTRIENT_KEYS, type Nutrients } from '../../server/nutrition/nutrients.js';
import { saveFood } from '../../server/nutrition/foods-write.js';
import { callerFor, failure } from '../helpers/callers.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * Recipes over REST and tRPC: a dish's values are the sum of its ingredients over its cooked
 * weight (to 0.1 g), per serving follows, editing recomputes, a food's change flows into the
 * recipes that use it, only dietitians write, and bad input is a 4xx naming the field.
 */
let server: TestServer;
let asha: TestUser;
let dietitian: TestUser;

// Values per 100 g, sound by the library's rules (energy near 4/4/9/2 of the macros).
const TOOR: Nutrients = { energyKcal: 333, proteinG: 21.7, carbohydrateG: 55.2, fatG: 1.5, fibreG: 9.1, ironMg: 3.9, calciumMg: 83 };
const ONION: Nutrients = { energyKcal: 47, proteinG: 1.5, carbohydrateG: 9.6, fatG: 0.2, fibreG: 2.5, ironMg: 0.5, calciumMg: 22 };
const GHEE: Nutrients = { energyKcal: 897, proteinG: 0, carbohydrateG: 0, fatG: 99.6, ironMg: 0.2 };
let toor: number;
let onion: number;
let ghee: number;

beforeAll(async () => {
  server = await startTestServer();
  [asha, dietitian] = await Promise.all([server.user({ firstName: 'Asha' }), server.user({ role: 'admin', firstName: 'Meera' })]);
  const add = async (name: string, group: 'pulses' | 'other-vegetables' | 'oils-fats', per100g: Nutrients) =>
    (await saveFood(server.deps.db, { name, nameHi: null, aliases: [], group, per100g })).id;
  toor = await add('Red gram, dal (test)', 'pulses', TOOR);
  onion = await add('Onion (test)', 'other-vegetables', ONION);
  ghee = await add('Ghee (test)', 'oils-fats', GHEE);
}, 180_000);
afterAll(() => server?.stop());

/** The expected per-100 g of a dish, worked out here from the values above. */
function expected(parts: [Nutrients, number][], cooked: number): Nutrients {
  const out: Nutrients = {};
  for (const key of NUTRIENT_KEYS) {
    if (parts.some(([v]) => v[key] === undefined)) continue;
    out[key] = (parts.reduce((sum, [v, g]) => sum + (v[key]! * g) / 100, 0) / cooked) * 100;
  }
  return out;
}

const dal = {
  name: 'Toor dal tadka (test)',
  nameHi: 'तूर दाल',
  ingredients: [] as { foodId: number; grams: number }[],
  cookedGrams: 600,
  servingGrams: 150,
};

describe('a recipe adds up', () => {
  it('POST /api/recipes answers 201 with per 100 g = sum of the ingredients ÷ cooked weight, and per serving', async () => {
    dal.ingredients = [
      { foodId: toor, grams: 150 },
      { foodId: onion, grams: 60 },
      { foodId: ghee, grams: 10 },
    ];
    const res = await server.request('POST', '/api/recipes', { token: dietitian.token, body: dal });
    expect(res.status).toBe(201);
    const recipe = res.body.data;
    expect(recipe).toMatchObject({
      kind: 'recipe',
      name: dal.name,
      nameHi: 'तूर दाल',
      group: 'dishes',
      cookedGrams: 600,
      servingGrams: 150,
      rawGrams: 220,
    });
    expect(recipe.ingredients.map((i: { foodId: number }) => i.foodId)).toEqual([toor, onion, ghee]);
    const want = expected(
      [
        [TOOR, 150],
        [ONION, 60],
        [GHEE, 10],
      ],
      600,
    );
    for (const key of ['energyKcal', 'proteinG', 'carbohydrateG', 'fatG', 'ironMg'] as const) {
      expect(Math.abs(recipe.per100g[key] - want[key]!)).toBeLessThan(0.05);
      expect(Math.abs(recipe.perServing[key] - (want[key]! * 150) / 100)).toBeLessThan(0.05);
    }
    // Ghee has no fibre or calcium value: unknown for the dish, never 0.
    expect(recipe.per100g.fibreG).toBeUndefined();
    expect(recipe.per100g.calciumMg).toBeUndefined();
    expect(recipe.yieldFactor).toBeCloseTo(600 / 220, 3);

    // Listed and read through /api/foods like any food.
    const found = await server.request('GET', `/api/foods?q=${encodeURIComponent('Toor dal tadka')}`, { token: asha.token });
    expect(found.status).toBe(200);
    expect(found.body.data.some((f: { id: number; kind: string }) => f.id === recipe.id && f.kind === 'recipe')).toBe(true);
    const read = await server.request('GET', `/api/foods/${recipe.id}`, { token: asha.token });
    expect(read.body.data.per100g.proteinG).toBeCloseTo(recipe.per100g.proteinG, 3);
    const viaRecipes = await server.request('GET', `/api/recipes/${recipe.id}`, { token: asha.token });
    expect(viaRecipes.status).toBe(200);
    expect(viaRecipes.body.data.perServing.energyKcal).toBeCloseTo(recipe.perServing.energyKcal, 3);
  });

  it('editing the recipe recomputes it; changing an ingredient food’s values flows into the recipe', async () => {
    const meera = await callerFor(server, dietitian.token);
    const created = await meera.recipes.create({
      name: 'Plain dal (test)',
      ingredients: [
        { foodId: toor, grams: 100 },
        { foodId: onion, grams: 50 },
      ],
      cookedGrams: 400,
      servingGrams: 150,
    });
    const more = await meera.recipes.update({ id: created.id, cookedGrams: 500 });
    expect(more.per100g.proteinG!).toBeCloseTo((created.per100g.proteinG! * 400) / 500, 3);
    const swapped = await meera.recipes.update({ id: created.id, ingredients: [{ foodId: toor, grams: 100 }] });
    expect(swapped.per100g.proteinG!).toBeCloseTo((21.7 / 500) * 100, 3);
    expect(swapped.ingredients).toHaveLength(1);

    await meera.foods.update({ id: toor, per100g: { ...TOOR, proteinG: 22.7, energyKcal: 337 } });
    const after = await meera.recipes.get({ id: created.id });
    expect(after.per100g.proteinG!).toBeCloseTo((22.7 / 500) * 100, 3);
  });

  it('a food used in a recipe is not archived silently: 409 naming the recipe', async () => {
    const meera = await callerFor(server, dietitian.token);
    const refused = await failure(meera.foods.archive({ id: ghee, archived: true }));
    expect(refused.code).toBe('CONFLICT');
    expect(refused.message).toMatch(/Toor dal tadka \(test\)/);
    expect((await meera.foods.get({ id: ghee })).archived).toBe(false);
  });

  it('a recipe’s values cannot be set by hand', async () => {
    const meera = await callerFor(server, dietitian.token);
    const recipe = await meera.recipes.create({
      name: 'Onion sabzi (test)',
      ingredients: [{ foodId: onion, grams: 200 }],
      cookedGrams: 150,
      servingGrams: 75,
    });
    const refused = await failure(meera.foods.update({ id: recipe.id, per100g: { energyKcal: 10 } }));
    expect(refused.code).toBe('BAD_REQUEST');
  });
});

describe('bad input and permissions', () => {
  const post = (body: unknown, token = dietitian.token) => server.request('POST', '/api/recipes', { token, body });

  it('only a dietitian adds or changes recipes', async () => {
    const byClient = await post({ ...dal, name: 'Client dal' }, asha.token);
    expect(byClient.status).toBe(403);
    const anonymous = await server.request('POST', '/api/recipes', { body: dal });
    expect(anonymous.status).toBe(401);
    const list = await server.request('GET', `/api/foods?q=${encodeURIComponent('Client dal')}`, { token: asha.token });
    expect(list.body.data).toEqual([]);
  });

  it('each mistake is a 400 that says what to fix', async () => {
    const cases: [unknown, RegExp][] = [
      [{ ...dal, ingredients: [] }, /at least one ingredient/],
      [{ ...dal, ingredients: [{ foodId: 99999999, grams: 100 }] }, /no food with id 99999999/],
      [{ ...dal, ingredients: [{ foodId: toor, grams: 0 }] }, /more than 0 g/],
      [
        {
          ...dal,
          ingredients: [
            { foodId: toor, grams: 50 },
            { foodId: toor, grams: 50 },
          ],
        },
        /once among the ingredients/,
      ],
      [{ ...dal, cookedGrams: 0 }, /cooked weight must be more than 0 g/],
      [{ ...dal, cookedGrams: 100, servingGrams: 150 }, /serving cannot weigh more than the whole cooked dish/],
      [{ ...dal, ingredients: [{ foodId: toor, grams: 500 }], cookedGrams: 200 }, /less than the protein, carbohydrate, fat and fibre/],
      [{ ...dal, name: '' }, /Name is required/],
      [{ ...dal, nameHi: 'toor' }, /Devanagari/],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
  });

  it('a recipe is not an ingredient, and a food that is not a recipe is not a recipe', async () => {
    const meera = await callerFor(server, dietitian.token);
    const first = await meera.recipes.create({
      name: 'Base (test)',
      ingredients: [{ foodId: onion, grams: 100 }],
      cookedGrams: 90,
      servingGrams: 45,
    });
    const nested = await post({ ...dal, ingredients: [{ foodId: first.id, grams: 100 }] });
    expect(nested.status).toBe(400);
    expect(nested.body.message).toMatch(/is a recipe/);
    const notRecipe = await server.request('GET', `/api/recipes/${onion}`, { token: asha.token });
    expect(notRecipe.status).toBe(404);
    const patchFood = await server.request('PATCH', `/api/recipes/${onion}`, { token: dietitian.token, body: { cookedGrams: 100 } });
    expect(patchFood.status).toBe(404);
  });
});
