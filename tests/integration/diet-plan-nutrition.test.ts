import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComposedDietPlanInput } from '../../server/diet-plan/schema.js';
import { nutrientsIn, sumNutrients } from '../../server/nutrition/compute.js';
import { formatNutrient, HEADLINE_NUTRIENTS, type Nutrients } from '../../server/nutrition/nutrients.js';
import { callerFor, failure } from '../helpers/callers.js';
import { seedFoods } from '../helpers/foods.js';
import { PLAN_FOODS } from '../helpers/plan-foods.js';
import { pdfText } from '../helpers/pdf.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/** A plan day of 2 roti, 1 katori dal and 1 katori rice adds up to the sum of its items, in the REST answer and the PDF. */

const FOODS = PLAN_FOODS;

let server: TestServer;
let admin: TestUser;
let client: TestUser;
let other: TestUser;
let ids: Record<keyof typeof FOODS, number>;

beforeAll(async () => {
  server = await startTestServer();
  [admin, client, other] = await Promise.all([
    server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' }),
    server.user({ firstName: 'Kavya', lastName: 'Menon' }),
    server.user({ firstName: 'Ravi', lastName: 'Nair' }),
  ]);
  ids = await seedFoods(server.deps.db, FOODS);
});
afterAll(() => server?.stop());

const plan = (showTotals: boolean): ComposedDietPlanInput => ({
  title: 'Adds up',
  from: '2026-12-07',
  to: '2026-12-07',
  showTotals,
  days: [
    {
      label: 'Monday',
      meals: [
        {
          time: '13:00',
          name: 'Lunch',
          items: [
            { food: 'Phulka', foodId: ids.roti, portion: { quantity: 2, unit: 'roti' } },
            { food: 'Toor dal', foodId: ids.dal, portion: { quantity: 1, unit: 'katori' } },
            { food: 'Rice', foodId: ids.rice, portion: { quantity: 1, unit: 'katori' } },
            { food: 'Cucumber salad', portion: { quantity: 1, unit: 'katori', grams: 100 } },
          ],
        },
      ],
    },
  ],
  guidelines: [],
});

/** The items' nutrients summed by hand: 70 g roti, 150 g dal, 130 g rice. */
const expected = sumNutrients([
  nutrientsIn(FOODS.roti.per100g, 70),
  nutrientsIn(FOODS.dal.per100g, 150),
  nutrientsIn(FOODS.rice.per100g, 130),
]);

describe('a plan day of 2 roti, 1 katori dal and 1 katori rice', () => {
  let planId: number;

  it('is saved with its foods linked, and the dietitian’s use of each food is noted', async () => {
    const console_ = await callerFor(server, admin.token);
    const saved = await console_.admin.dietPlans.compose({ clientId: client.id, plan: plan(true) });
    planId = saved.id;
    const uses = await server.deps.db.selectFrom('food_uses').select(['food_id', 'uses']).where('user_id', '=', admin.id).execute();
    expect(uses.map((u) => u.food_id).sort()).toEqual(Object.values(ids).sort());
  });

  it('answers each item’s grams and nutrients, and meal and day totals equal to their sum (REST)', async () => {
    const res = await server.request('GET', `/api/diet-plans/${planId}`, { token: client.token });
    expect(res.status).toBe(200);
    const view = res.body.data;
    expect(view).toMatchObject({ id: planId, showTotals: true, numbers: true, title: 'Adds up' });
    const items = view.days[0].meals[0].items;
    expect(items.map((i: { grams: number | null }) => i.grams)).toEqual([70, 150, 130, 100]);
    expect(items[0]).toMatchObject({ food: 'Phulka', foodId: ids.roti, portionText: '2 rotis' });
    expect(items[3]).toMatchObject({ food: 'Cucumber salad', nutrients: null });
    const day = view.days[0].total;
    expect(day).toMatchObject({ items: 3, unlinked: 1, missing: { ironMg: 1 } });
    for (const key of HEADLINE_NUTRIENTS) {
      expect(day.values[key]).toBeCloseTo(expected.values[key] ?? Number.NaN, 1);
      expect(view.days[0].meals[0].total.values[key]).toBeCloseTo(expected.values[key] ?? Number.NaN, 1);
      const itemSum = items.reduce((n: number, i: { nutrients: Nutrients | null }) => n + (i.nutrients?.[key] ?? 0), 0);
      expect(day.values[key]).toBeCloseTo(itemSum, 1);
    }
  });

  it('prints the day’s totals in the PDF, the same to 0.1 g', async () => {
    const asClient = await callerFor(server, client.token);
    const { data } = await asClient.dietPlan.list({ page: 0, count: 10 });
    const pdf = new Uint8Array(await (await fetch(new URL(data[0]!.pdfURL, server.url))).arrayBuffer());
    const text = pdfText(pdf).replace(/\s+/g, ' ');
    expect(text).toContain('Monday: daily total');
    for (const key of HEADLINE_NUTRIENTS) expect(text).toContain(formatNutrient(key, expected.values[key]!));
    expect(text).toContain('2 rotis (70 g)');
    expect(text).toContain('Not counted: 1 item without a linked food.');
  });

  it('keeps the totals out of the PDF unless the dietitian asks', async () => {
    const console_ = await callerFor(server, admin.token);
    const preview = await console_.admin.dietPlans.preview({ clientId: client.id, plan: plan(false) });
    expect(pdfText(Buffer.from(preview.base64, 'base64'))).not.toContain('daily total');
  });

  it('shows another client’s plan to no one but its client and the dietitian', async () => {
    expect((await server.request('GET', `/api/diet-plans/${planId}`, { token: other.token })).status).toBe(404);
    expect((await server.request('GET', `/api/diet-plans/${planId}`, { token: admin.token })).body.data.days[0].total.items).toBe(3);
  });

  it('gives a client whose numbers are hidden the plan without amounts', async () => {
    const console_ = await callerFor(server, admin.token);
    await console_.nutritionTargets.set({ clientId: client.id, targets: { energyKcal: 1600, proteinG: 60 }, showNumbers: false });
    const view = (await server.request('GET', `/api/diet-plans/${planId}`, { token: client.token })).body.data;
    expect(view.numbers).toBe(false);
    expect(view.days[0].total).toBeNull();
    expect(view.days[0].meals[0].items[0]).toMatchObject({ food: 'Phulka', grams: null, nutrients: null });
    await console_.nutritionTargets.set({ clientId: client.id, targets: { energyKcal: 1600, proteinG: 60 }, showNumbers: true });
  });

  it('refuses a linked food that cannot be weighed, or that does not exist, naming the item', async () => {
    const console_ = await callerFor(server, admin.token);
    const glass = plan(false);
    glass.days[0]!.meals[0]!.items[0]!.portion = { quantity: 1, unit: 'glass' };
    const unweighed = await failure(console_.admin.dietPlans.compose({ clientId: client.id, plan: glass, acknowledgeWarnings: true }));
    expect(unweighed).toMatchObject({ code: 'BAD_REQUEST' });
    expect(unweighed.message).toBe(
      'Monday, Lunch: Plan test phulka has no weight for a glass. Give the grams, or choose a measure it has (roti, g).',
    );
    const gone = plan(false);
    gone.days[0]!.meals[0]!.items[1]!.foodId = 999_999;
    const missing = await failure(console_.admin.dietPlans.compose({ clientId: client.id, plan: gone, acknowledgeWarnings: true }));
    expect(missing.message).toBe('Monday, Lunch: “Toor dal” is linked to a food that is no longer in the library. Choose the food again.');
  });
});
