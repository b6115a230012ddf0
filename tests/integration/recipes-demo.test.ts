import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../server/db/index.js';
import { upsertImportedFoods } from '../../server/nutrition/foods-write.js';
import { importIfct } from '../../server/nutrition/import/ifct.js';
import { atwaterKcal, nutrientProblems, type Nutrients } from '../../server/nutrition/nutrients.js';
import { getRecipe } from '../../server/nutrition/recipes.js';
import { DEMO_RECIPES, demoRecipeRef, seedDemoRecipes } from '../../server/seed/demo-recipes.js';
import { DEMO_TARGETS, demoTargets } from '../../server/seed/demo-targets.js';
import { createTestDatabase } from '../helpers/db.js';

/**
 * The demo's dozen recipes built from IFCT 2017 by code: each is there once (seeding again adds
 * nothing), sound by the library's rules, and a serving carries what a home cook would expect
 * (a katori of dal about 120 kcal and 6–8 g protein, a roti about 110 kcal).
 */
let handle: DbHandle;
let ids: Map<string, number>;

beforeAll(async () => {
  handle = await createTestDatabase();
  await importIfct(handle.db, {});
  ids = await seedDemoRecipes(handle.db, { now: new Date() });
}, 240_000);
afterAll(() => handle?.close());

describe('the demo recipes', () => {
  it('are a dozen and more, each once, found by their reference; seeding again adds none', async () => {
    expect(ids.size).toBe(DEMO_RECIPES.length);
    expect(DEMO_RECIPES.length).toBeGreaterThanOrEqual(12);
    const again = await seedDemoRecipes(handle.db, { now: new Date() });
    expect([...again.entries()]).toEqual([...ids.entries()]);
    const rows = await handle.db
      .selectFrom('foods')
      .select(['source_ref', 'kind'])
      .where('source', '=', 'clinic')
      .where('source_ref', 'like', 'demo-recipe:%')
      .execute();
    expect(rows).toHaveLength(DEMO_RECIPES.length);
    expect(rows.every((r) => r.kind === 'recipe')).toBe(true);
    expect(rows.map((r) => r.source_ref).sort()).toEqual(DEMO_RECIPES.map((r) => demoRecipeRef(r.key)).sort());
  });

  it('each is sound and its energy agrees with its macros', async () => {
    for (const recipe of DEMO_RECIPES) {
      const view = await getRecipe(handle.db, ids.get(recipe.key)!);
      expect(nutrientProblems(view.per100g), recipe.key).toEqual([]);
      expect(view.ingredients).toHaveLength(recipe.ingredients.length);
      const atwater = atwaterKcal(view.per100g);
      expect(atwater, recipe.key).not.toBeNull();
      expect(view.per100g.energyKcal, recipe.key).toBeGreaterThan(30);
      expect(view.per100g.energyKcal, recipe.key).toBeLessThan(400);
    }
  });

  it('a serving is what a home cook would expect', async () => {
    const serving = async (key: string): Promise<Nutrients> => (await getRecipe(handle.db, ids.get(key)!)).perServing;
    const dal = await serving('toor-dal');
    expect(dal.energyKcal).toBeGreaterThan(90);
    expect(dal.energyKcal).toBeLessThan(160);
    expect(dal.proteinG).toBeGreaterThan(5);
    expect(dal.proteinG).toBeLessThan(9);
    const roti = await serving('roti');
    expect(roti.energyKcal).toBeGreaterThan(85);
    expect(roti.energyKcal).toBeLessThan(130);
    const rice = await serving('rice');
    expect(rice.energyKcal).toBeGreaterThan(160);
    expect(rice.energyKcal).toBeLessThan(200);
  });
});

describe('a re-import', () => {
  it('carries a food’s new values into the recipes made with it', async () => {
    const dalId = ids.get('toor-dal')!;
    const before = await getRecipe(handle.db, dalId);
    const toor = await handle.db
      .selectFrom('foods')
      .select(['name', 'name_hi', 'food_group', 'per_100g'])
      .where('source', '=', 'ifct2017')
      .where('source_ref', '=', 'B021')
      .executeTakeFirstOrThrow();
    const per100g = {
      ...(toor.per_100g as Nutrients),
      proteinG: (toor.per_100g.proteinG ?? 0) + 1,
      energyKcal: (toor.per_100g.energyKcal ?? 0) + 4,
    };
    const counts = await upsertImportedFoods(handle.db, 'ifct2017', [
      { name: toor.name, nameHi: toor.name_hi, aliases: [], group: 'pulses', per100g, sourceRef: 'B021' },
    ]);
    expect(counts.updated).toBe(1);
    const after = await getRecipe(handle.db, dalId);
    // 100 g of dal in 600 g cooked: 1 g more protein in the pot is 1/6 g more per 100 g.
    expect(after.per100g.proteinG! - before.per100g.proteinG!).toBeCloseTo(100 / 600, 2);
  });
});

describe('the demo targets', () => {
  it('follow the suggestion with the dietitian’s energy change, macros adding up to the energy', () => {
    for (const demo of Object.values(DEMO_TARGETS)) {
      const t = demoTargets(demo);
      const macroKcal = 4 * t.proteinG! + 4 * t.carbohydrateG! + 9 * t.fatG!;
      expect(Math.abs(macroKcal - t.energyKcal!)).toBeLessThan(1);
      expect(t.proteinG).toBeCloseTo(demo.person.proteinGPerKg * demo.person.weightKg, 1);
      for (const key of demo.micronutrients) expect(t[key]).toBeGreaterThan(0);
    }
    // Asha: 10×71.6 + 6.25×162 − 5×34 − 161 = 1397.5 at rest; × 1.375 = 1921.6 → 1922; − 350 = 1572.
    expect(demoTargets(DEMO_TARGETS.asha).energyKcal).toBe(1572);
  });
});
