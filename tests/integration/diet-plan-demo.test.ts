import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../server/db/index.js';
import { planFoods } from '../../server/diet-plan/foods.js';
import { analysePlan } from '../../server/diet-plan/nutrition.js';
import { composedDietPlanSchema } from '../../server/diet-plan/schema.js';
import { importIfct } from '../../server/nutrition/import/ifct.js';
import { ashaDietPlans, linkDemoPlans, rohanDietPlan } from '../../server/seed/demo-plans.js';
import { seedDemoRecipes } from '../../server/seed/demo-recipes.js';
import { createTestDatabase } from '../helpers/db.js';

/** The demo's plans link their everyday foods (dal, roti, rice, idli, fruit, milk) to the library, so each day adds up. */
let handle: DbHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
  await importIfct(handle.db, {});
  await seedDemoRecipes(handle.db, { now: new Date() });
}, 240_000);
afterAll(() => handle?.close());

describe('the demo plans', () => {
  it('link their foods to the demo recipes and IFCT foods, and every day adds up', async () => {
    const plans = await linkDemoPlans(handle.db, [...ashaDietPlans('2026-11-26'), rohanDietPlan('2026-11-26')]);
    for (const input of plans) {
      const plan = composedDietPlanSchema.parse(input);
      const sums = analysePlan(plan.days, await planFoods(handle.db, plan.days));
      for (const [d, day] of sums.entries()) {
        const where = `${plan.title}, ${plan.days[d]?.label}`;
        expect(day.total.items, where).toBeGreaterThanOrEqual(1);
        expect(day.total.values.energyKcal, where).toBeGreaterThan(50);
        expect(day.total.values.energyKcal, where).toBeLessThan(3000);
      }
    }
    // Linked: a phulka is the demo roti recipe, a banana IFCT's.
    const names = await handle.db
      .selectFrom('foods')
      .select(['id', 'name'])
      .where(
        'id',
        'in',
        plans.flatMap((p) => p.days.flatMap((d) => d.meals.flatMap((m) => m.items.flatMap((i) => (i.foodId ? [i.foodId] : []))))),
      )
      .execute();
    expect(names.map((n) => n.name)).toEqual(expect.arrayContaining(['Roti (phulka)', 'Toor dal tadka']));
  }, 60_000);

  it('stay free text where the library lacks the foods (the demo without IFCT)', async () => {
    const empty = await createTestDatabase();
    try {
      const [plan] = await linkDemoPlans(empty.db, [rohanDietPlan('2026-11-26')]);
      expect(plan?.days.flatMap((d) => d.meals.flatMap((m) => m.items)).every((i) => i.foodId === undefined)).toBe(true);
    } finally {
      await empty.close();
    }
  });
});
