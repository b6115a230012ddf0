import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, failure } from '../helpers/callers.js';
import { seedFoods, TEST_FOODS } from '../helpers/foods.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * The food library over REST (GET/POST /api/foods, GET/PATCH /api/foods/{id}) and the console's
 * procedures: the envelope, clear 4xx messages for bad input and values that do not add up, only
 * dietitians change foods, and every change leaves an audit entry.
 */
let server: TestServer;
let dietitian: TestUser;
let client: TestUser;
let ids: Record<keyof typeof TEST_FOODS, number>;

beforeAll(async () => {
  server = await startTestServer();
  [dietitian, client] = await Promise.all([server.user({ role: 'admin', firstName: 'Meera' }), server.user({ firstName: 'Asha' })]);
  ids = await seedFoods(server.deps.db, TEST_FOODS);
}, 600_000);
afterAll(async () => {
  await server?.stop();
});

const api = (method: string, token: string | undefined, path: string, body?: unknown) =>
  server.request(method, `/api${path}`, { token, body }) as Promise<{ status: number; body: any }>;
const auditOf = (foodId: number) =>
  server.deps.db
    .selectFrom('audit_log')
    .select(['action', 'actor_id', 'summary', 'details'])
    .where('entity', '=', 'food')
    .where('entity_id', '=', foodId)
    .orderBy('id')
    .execute();

const sprouts = {
  name: 'Moong sprouts',
  nameHi: 'अंकुरित मूंग',
  aliases: ['mung sprouts', 'green gram sprouts'],
  group: 'pulses',
  per100g: { energyKcal: 30, proteinG: 3, carbohydrateG: 4.1, fatG: 0.2, fibreG: 1.8, ironMg: 0.9 },
  portions: [{ unit: 'katori', grams: 70 }],
};

describe('GET /api/foods', () => {
  it('answers the search in the envelope, for a client too', async () => {
    const res = await api('GET', client.token, `/foods?q=${encodeURIComponent('पनीर')}&limit=2`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ id: ids.paneer, name: 'Paneer', nameHi: 'पनीर', group: 'milk', per100g: { proteinG: 18.9 } });
    expect(res.body.data.length).toBeLessThanOrEqual(2);
  });

  it('refuses a bad limit and a signed-out caller with a message to act on', async () => {
    for (const limit of ['0', '51', 'ten', '2.5']) {
      const res = await api('GET', client.token, `/foods?q=dal&limit=${limit}`);
      expect(res.status, limit).toBe(400);
      expect(res.body.message, limit).toMatch(/^limit must be/);
    }
    expect((await api('GET', undefined, '/foods?q=dal')).status).toBe(401);
  });
});

describe('GET /api/foods/{id}', () => {
  it('answers a food with its aliases', async () => {
    const res = await api('GET', client.token, `/foods/${ids.redGramWhole}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: ids.redGramWhole,
      name: 'Red gram, whole',
      archived: false,
      ingredients: [],
      cookedGrams: null,
    });
    expect(res.body.data.aliases.sort()).toEqual(['arhar', 'toor', 'tuvar']);
  });

  it('answers 404 for an unknown id and 400 for one that is not a number', async () => {
    const missing = await api('GET', client.token, '/foods/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('There is no food with id 999999.');
    const bad = await api('GET', client.token, '/foods/paneer');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('id must be a number');
  });
});

describe('POST /api/foods', () => {
  it('adds a food for a dietitian (201), found by search at once, with an audit entry', async () => {
    const res = await api('POST', dietitian.token, '/foods', sprouts);
    expect(res.status).toBe(201);
    const food = res.body.data;
    expect(food).toMatchObject({ name: 'Moong sprouts', nameHi: 'अंकुरित मूंग', source: 'clinic', portions: [{ unit: 'katori', grams: 70 }] });
    expect(food.aliases.sort()).toEqual(['green gram sprouts', 'mung sprouts']);
    const found = await api('GET', client.token, '/foods?q=mung%20sprout');
    expect(found.body.data[0].id).toBe(food.id);
    const audit = await auditOf(food.id);
    expect(audit).toEqual([expect.objectContaining({ action: 'food.created', actor_id: dietitian.id })]);
  });

  it('gives a food without portions its group’s usual ones', async () => {
    const res = await api('POST', dietitian.token, '/foods', {
      ...sprouts,
      name: 'Sprouted chana',
      nameHi: null,
      aliases: [],
      portions: undefined,
    });
    expect(res.status).toBe(201);
    expect(res.body.data.portions.map((p: { unit: string }) => p.unit).sort()).toEqual(['cup', 'handful', 'katori', 'tbsp']);
  });

  it('refuses a client (403) and stores nothing', async () => {
    const res = await api('POST', client.token, '/foods', { ...sprouts, name: 'Client food' });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Only dietitians can do that.');
    expect((await api('GET', client.token, '/foods?q=client%20food')).body.data).toEqual([]);
  });

  it('refuses values that do not add up, naming each problem', async () => {
    const res = await api('POST', dietitian.token, '/foods', {
      ...sprouts,
      name: 'Broken food',
      per100g: { energyKcal: 30, proteinG: 3, carbohydrateG: 4, fatG: 1, saturatedFatG: 2, sugarsG: 5 },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Saturated fat (2 g) is more than total fat (1 g)');
    expect(res.body.message).toContain('Total sugars (5 g) are more than carbohydrate (4 g)');
  });

  it('refuses bad fields with their own messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...sprouts, name: '' }, 'Name is required'],
      [{ ...sprouts, group: 'snacks' }, 'Group must be one of'],
      [{ ...sprouts, per100g: { proteinG: -1 } }, 'Protein cannot be negative'],
      [{ ...sprouts, per100g: { vitaminQ: 1 } }, 'vitaminQ'],
      [{ ...sprouts, nameHi: 'Moong' }, 'Hindi name must be written in Devanagari'],
      [{ ...sprouts, portions: [{ unit: 'bucket', grams: 10 }] }, 'Unit must be one of'],
      [{ ...sprouts, portions: [{ unit: 'katori', grams: 0 }] }, 'A portion must weigh more than 0 g'],
      [
        {
          ...sprouts,
          portions: [
            { unit: 'katori', grams: 70 },
            { unit: 'katori', grams: 80 },
          ],
        },
        'Each unit can appear once among the portions',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await api('POST', dietitian.token, '/foods', body);
      expect(res.status, message).toBe(400);
      expect(res.body.message, message).toContain(message);
    }
  });
});

describe('PATCH /api/foods/{id}', () => {
  it('changes only what is sent, the aliases replacing the old ones, with an audit entry of what changed', async () => {
    const res = await api('PATCH', dietitian.token, `/foods/${ids.peas}`, {
      aliases: ['matar', 'hari matar'],
      per100g: { ...TEST_FOODS.peas.per100g, ironMg: 1.5 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Peas, green', nameHi: 'मटर', per100g: { ironMg: 1.5 } });
    expect(res.body.data.aliases.sort()).toEqual(['hari matar', 'matar']);
    expect((await api('GET', client.token, '/foods?q=hari%20matar')).body.data[0].id).toBe(ids.peas);
    const [entry] = await auditOf(ids.peas);
    expect(entry).toMatchObject({ action: 'food.updated', actor_id: dietitian.id });
    expect(Object.keys(entry!.details).sort()).toEqual(['aliases', 'per100g']);
  });

  it('refuses a client (403), an unknown food (404) and values that do not add up (400)', async () => {
    expect((await api('PATCH', client.token, `/foods/${ids.peas}`, { name: 'Mine' })).status).toBe(403);
    const missing = await api('PATCH', dietitian.token, '/foods/999999', { name: 'Nothing' });
    expect(missing.status).toBe(404);
    const bad = await api('PATCH', dietitian.token, `/foods/${ids.peas}`, {
      per100g: { energyKcal: 500, proteinG: 5, carbohydrateG: 14, fatG: 0.4 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Energy 500 kcal is far from the');
  });
});

describe('console procedures', () => {
  it('archives and restores a food (out of search, then back), each with an audit entry; clients cannot', async () => {
    const console = await callerFor(server, dietitian.token);
    expect((await console.foods.archive({ id: ids.attaBiscuit, archived: true })).archived).toBe(true);
    expect((await console.foods.search({ q: 'atta biscuit' })).map((f) => f.id)).not.toContain(ids.attaBiscuit);
    const listed = await console.foods.list({ q: '', includeArchived: true, limit: 50 });
    expect(listed.find((f) => f.id === ids.attaBiscuit)?.archived).toBe(true);
    await console.foods.archive({ id: ids.attaBiscuit, archived: false });
    expect((await console.foods.search({ q: 'atta biscuit' }))[0]?.id).toBe(ids.attaBiscuit);
    expect((await auditOf(ids.attaBiscuit)).map((a) => a.action)).toEqual(['food.archived', 'food.restored']);
    const asClient = await callerFor(server, client.token);
    expect((await failure(asClient.foods.archive({ id: ids.atta, archived: true }))).code).toBe('FORBIDDEN');
    expect((await failure(asClient.foods.list({ q: '' }))).code).toBe('FORBIDDEN');
  });

  it('replaces a food’s portions, audited', async () => {
    const console = await callerFor(server, dietitian.token);
    const food = await console.foods.setPortions({
      id: ids.redGramDal,
      portions: [
        { unit: 'katori', grams: 150 },
        { unit: 'tbsp', grams: 15 },
      ],
    });
    expect(food.portions).toEqual([
      { unit: 'tbsp', grams: 15 },
      { unit: 'katori', grams: 150 },
    ]);
    expect((await auditOf(ids.redGramDal)).map((a) => a.action)).toEqual(['food.portions-changed']);
    expect((await failure(console.foods.setPortions({ id: 999_999, portions: [] }))).code).toBe('NOT_FOUND');
  });
});
