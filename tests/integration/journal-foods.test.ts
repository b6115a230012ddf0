import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalAdherence } from '../../server/journal/adherence.js';
import type { JournalEvent } from '../../server/journal/schema.js';
import { byIntake } from '../../src/features/journal/intake-order.js';
import { HEADLINE_NUTRIENTS, type NutrientKey } from '../../server/nutrition/nutrients.js';
import { dayIn } from '../../server/journal/schema.js';
import { callerFor, failure, wsClient } from '../helpers/callers.js';
import { JOURNAL_TEST_FOODS, seedJournalFoods, setJournalTargets } from '../helpers/journal-foods.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * A journal meal lists foods with quantities: each item answers its grams and nutrients, the meal
 * and the day add up (to 0.1 g, over REST and tRPC), a dietitian estimates a photo meal and the
 * client sees it live, and a client whose dietitian keeps the numbers gets none.
 */
let server: TestServer;
let dietitian: TestUser;
let asha: TestUser;
let ravi: TestUser;
let food: Awaited<ReturnType<typeof seedJournalFoods>>;
const sockets: ReturnType<typeof wsClient>[] = [];

beforeAll(async () => {
  server = await startTestServer();
  [dietitian, asha, ravi] = await Promise.all([
    server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' }),
    server.user({ firstName: 'Asha', lastName: 'Verma' }),
    server.user({ firstName: 'Ravi', lastName: 'Kumar' }),
  ]);
  food = await seedJournalFoods(server.deps.db);
  await setJournalTargets(server.deps.db, asha.id, { energyKcal: 1800, proteinG: 60, fibreG: 25 });
}, 600_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await server?.stop();
});

const api = (method: string, token: string, path: string, body?: unknown) => server.request(method, `/api${path}`, { token, body });
const today = () => dayIn(new Date());
const meal = (overrides: Record<string, unknown> = {}) => ({ clientEntryId: randomUUID(), meal: 'lunch', ...overrides });
const lunch = () => [
  { foodId: food.roti, quantity: 2, unit: 'roti' },
  { foodId: food.dal, quantity: 1, unit: 'katori' },
  { foodId: food.rice, quantity: 1, unit: 'katori' },
];
/** What an item carries, worked by hand from the test foods' values per 100 g. */
const expected = (key: keyof typeof JOURNAL_TEST_FOODS, grams: number, nutrient: NutrientKey) =>
  ((JOURNAL_TEST_FOODS[key].per100g as Record<string, number>)[nutrient] ?? 0) * (grams / 100);
type Item = { grams: number; nutrients: Record<string, number> | null; byDietitian: boolean; name: string };
const sumOf = (items: Item[], key: NutrientKey) => items.reduce((s, i) => s + (i.nutrients?.[key] ?? 0), 0);

describe('a meal with foods', () => {
  it('answers each item’s grams and nutrients and the meal’s totals; the day adds up to 0.1 g over REST and tRPC', async () => {
    const res = await api('POST', asha.token, '/meals', meal({ description: 'Lunch at home', items: lunch() }));
    expect(res.status).toBe(201);
    const entry = res.body.data;
    expect(entry.items.map((i: Item) => i.grams)).toEqual([80, 150, 130]);
    expect(entry.items[0]).toMatchObject({ foodId: food.roti, quantity: 2, unit: 'roti', byDietitian: false });
    expect(entry.items[0].nutrients.proteinG).toBeCloseTo(expected('roti', 80, 'proteinG'), 6);
    expect(entry.items[1].nutrients.energyKcal).toBeCloseTo(expected('dal', 150, 'energyKcal'), 6);
    for (const key of HEADLINE_NUTRIENTS) expect(entry.totals.values[key]).toBeCloseTo(sumOf(entry.items, key), 6);
    // The rice does not know its iron: the total says so rather than counting it as none.
    expect(entry.totals.missing).toEqual({
      ironMg: 1,
      energyKj: 3,
      saturatedFatG: 3,
      sugarsG: 3,
      sodiumMg: 3,
      potassiumMg: 3,
      calciumMg: 3,
      zincMg: 3,
      magnesiumMg: 3,
      vitaminAUg: 3,
      vitaminCMg: 3,
      folateUg: 3,
      vitaminB12Ug: 3,
      vitaminDUg: 3,
    });
    expect(entry.totals.values.energyKj).toBeUndefined();

    // A second meal the same day: a text-only one adds nothing, a paneer snack adds its own.
    expect((await api('POST', asha.token, '/meals', meal({ meal: 'breakfast', description: 'Chai' }))).status).toBe(201);
    const snack = await api(
      'POST',
      asha.token,
      '/meals',
      meal({ meal: 'evening-snack', items: [{ foodId: food.paneer, quantity: 50, unit: 'g' }] }),
    );
    expect(snack.status).toBe(201);
    expect(snack.body.data.description).toBe('');

    const days = await api('GET', asha.token, `/nutrition/days?from=${today()}&to=${today()}`);
    expect(days.status).toBe(200);
    expect(days.body).toMatchObject({ clientId: asha.id, showNumbers: true, targets: { energyKcal: 1800, proteinG: 60, fibreG: 25 } });
    const [day] = days.body.data;
    expect(day).toMatchObject({ date: today(), meals: 3, mealsWithFoods: 2 });
    const items: Item[] = [...entry.items, ...snack.body.data.items];
    for (const key of HEADLINE_NUTRIENTS) expect(Math.abs(day.totals.values[key] - sumOf(items, key))).toBeLessThan(0.1);
    expect(day.totals.values.proteinG).toBeCloseTo(
      expected('roti', 80, 'proteinG') +
        expected('dal', 150, 'proteinG') +
        expected('rice', 130, 'proteinG') +
        expected('paneer', 50, 'proteinG'),
      6,
    );
    expect(day.shares.proteinG).toBeCloseTo(day.totals.values.proteinG / 60, 6);
    expect(Object.keys(day.shares).sort()).toEqual(['energyKcal', 'fibreG', 'proteinG']);

    // The day view says the same, with each meal's totals adding up to the day's.
    const view = await (await callerFor(server, asha.token)).journal.day({});
    expect(view.showNumbers).toBe(true);
    expect(view.totals?.values.proteinG).toBeCloseTo(day.totals.values.proteinG, 6);
    expect(view.targets).toEqual({ energyKcal: 1800, proteinG: 60, fibreG: 25 });
    // The dietitian reads the same days for the client; another client is refused.
    const team = await api('GET', dietitian.token, `/nutrition/days?clientId=${asha.id}&from=${today()}&to=${today()}`);
    expect(team.body.data[0].totals.values.proteinG).toBeCloseTo(day.totals.values.proteinG, 6);
    expect((await api('GET', ravi.token, `/nutrition/days?clientId=${asha.id}`)).status).toBe(403);
    expect((await api('GET', dietitian.token, '/nutrition/days')).status).toBe(400);
    const week = await api('GET', asha.token, '/nutrition/days');
    expect(week.body.data).toHaveLength(7);
    expect(week.body.data.at(-1).date).toBe(today());
  });

  it('refuses a food that is not in the library or a measure the food has not, saying what to do (422), storing nothing', async () => {
    const unknown = await api('POST', ravi.token, '/meals', meal({ items: [{ foodId: 99_999_999, quantity: 1, unit: 'katori' }] }));
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toMatch(/not in the food library.*search for the food again/);
    expect(unknown.body.data.fieldErrors['items.0.foodId']).toBeDefined();
    const noRoti = await api('POST', ravi.token, '/meals', meal({ items: [{ foodId: food.rice, quantity: 1, unit: 'roti' }] }));
    expect(noRoti.status).toBe(422);
    expect(noRoti.body.message).toMatch(/has no “roti” measure: use one of katori, g/);
    const badUnit = await api('POST', ravi.token, '/meals', meal({ items: [{ foodId: food.rice, quantity: 1, unit: 'bucket' }] }));
    expect(badUnit.status).toBe(400);
    expect(badUnit.body.message).toMatch(/Unit must be one of/);
    const tooMany = await api(
      'POST',
      ravi.token,
      '/meals',
      meal({ items: Array.from({ length: 21 }, () => ({ foodId: food.dal, quantity: 1, unit: 'g' })) }),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/at most 20 foods/);
    const nothing = await api('POST', ravi.token, '/meals', meal());
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toMatch(/Write what you ate, or add a food or a photo/);
    expect((await api('GET', ravi.token, '/meals')).body.data).toEqual([]);
  });

  it('answers a repeat with the same foods, refuses one with other foods, and an edit replaces the list', async () => {
    const body = meal({ meal: 'dinner', items: [{ foodId: food.dal, quantity: 1.5, unit: 'katori' }] });
    const first = await api('POST', ravi.token, '/meals', body);
    expect(first.status).toBe(201);
    expect(first.body.data.items[0].grams).toBe(225);
    expect((await api('POST', ravi.token, '/meals', body)).status).toBe(200);
    const other = await api('POST', ravi.token, '/meals', { ...body, items: [{ foodId: food.dal, quantity: 2, unit: 'katori' }] });
    expect(other.status).toBe(422);
    expect(other.body.data.fieldErrors.items).toBeDefined();
    const edited = await api('PATCH', ravi.token, `/meals/${first.body.data.id}`, {
      items: [{ foodId: food.roti, quantity: 3, unit: 'roti' }],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.items.map((i: Item) => [i.name, i.grams])).toEqual([[expect.stringMatching(/^Test roti/), 120]]);
    expect(edited.body.data.totals.values.energyKcal).toBeCloseTo(expected('roti', 120, 'energyKcal'), 6);
  });
});

describe('the follow-up queue', () => {
  it('carries the week’s protein and energy against the targets, over the days with foods, to order clients by', async () => {
    const week = (await journalAdherence(server.deps.db, [asha.id, ravi.id], new Date())).get(asha.id)!;
    const day = (await api('GET', asha.token, `/nutrition/days?from=${today()}&to=${today()}`)).body.data[0];
    expect(week.intake).toMatchObject({ daysWithFoods: 1 });
    expect(week.intake!.proteinShare).toBeCloseTo(day.totals.values.proteinG / 60, 6);
    expect(week.intake!.energyShare).toBeCloseTo(day.totals.values.energyKcal / 1800, 6);
    // Ravi has no targets: his foods count, his shares are not known.
    expect((await journalAdherence(server.deps.db, [ravi.id], new Date())).get(ravi.id)?.intake).toMatchObject({ proteinShare: null });
    const rows = [
      { name: 'no foods', journal: { daysLogged: 0, lastLogged: null, intake: null } },
      { name: 'asha', journal: week },
      { name: 'low', journal: { ...week, intake: { daysWithFoods: 2, energyShare: 0.9, proteinShare: 0.1 } } },
    ];
    expect(byIntake(rows, 'protein').map((r) => r.name)).toEqual(['low', 'asha', 'no foods']);
    expect(byIntake(rows, 'due').map((r) => r.name)).toEqual(['no foods', 'asha', 'low']);
  });
});

describe('a dietitian’s estimate', () => {
  it('adds foods to a client’s photo or text meal; the client sees it live; only a dietitian may', async () => {
    const entry = (await api('POST', ravi.token, '/meals', meal({ meal: 'breakfast', description: 'Poha and chai' }))).body.data;
    expect(entry.items).toEqual([]);
    expect(entry.totals).toBeNull();
    const socket = wsClient(server.url, ravi.token);
    sockets.push(socket);
    const events: JournalEvent[] = [];
    socket.client.journal.events.subscribe({}, { onData: (e) => events.push(e as JournalEvent) });
    await expect.poll(() => events.some((e) => e.kind === 'ready'), { timeout: 20_000 }).toBe(true);

    const team = await callerFor(server, dietitian.token);
    const estimated = await team.admin.journal.estimate({ entryId: entry.id, items: [{ foodId: food.rice, quantity: 1, unit: 'katori' }] });
    expect(estimated.items).toMatchObject([{ foodId: food.rice, grams: 130, byDietitian: true }]);
    await expect
      .poll(() => events.some((e) => e.kind === 'changed' && e.what === 'entry' && e.entryId === entry.id), { timeout: 20_000 })
      .toBe(true);
    const seen = (await (await callerFor(server, ravi.token)).journal.day({})).entries.find((e) => e.id === entry.id);
    expect(seen?.items[0]).toMatchObject({ byDietitian: true, grams: 130 });
    expect(seen?.totals?.values.energyKcal).toBeCloseTo(expected('rice', 130, 'energyKcal'), 6);

    // The same over REST; a client is refused.
    const put = await api('PUT', dietitian.token, `/meals/${entry.id}/items`, {
      items: [{ foodId: food.roti, quantity: 1, unit: 'roti' }],
    });
    expect(put.status).toBe(200);
    expect(put.body.data.items).toMatchObject([{ foodId: food.roti, grams: 40, byDietitian: true }]);
    expect((await api('PUT', ravi.token, `/meals/${entry.id}/items`, { items: [] })).status).toBe(403);
    const client = await callerFor(server, ravi.token);
    expect((await failure(client.admin.journal.estimate({ entryId: entry.id, items: [] }))).code).toBe('FORBIDDEN');
    expect((await failure(team.admin.journal.estimate({ entryId: 99_999_999, items: [] }))).code).toBe('NOT_FOUND');
  });
});

describe('numbers kept from the client', () => {
  it('lists the foods without numbers for the client, and every number for the dietitian', async () => {
    const noora = await server.user({ firstName: 'Noora', lastName: 'Shah' });
    await setJournalTargets(server.deps.db, noora.id, { energyKcal: 2000, proteinG: 55 }, false);
    const saved = await api('POST', noora.token, '/meals', meal({ items: lunch() }));
    expect(saved.status).toBe(201);
    expect(saved.body.data.totals).toBeNull();
    expect(saved.body.data.items.map((i: Item) => i.nutrients)).toEqual([null, null, null]);
    expect(saved.body.data.items.map((i: Item) => i.grams)).toEqual([80, 150, 130]);
    const view = await (await callerFor(server, noora.token)).journal.day({});
    expect(view).toMatchObject({ showNumbers: false, totals: null, targets: null });
    const days = await api('GET', noora.token, '/nutrition/days');
    expect(days.body).toMatchObject({ showNumbers: false, targets: {}, data: [] });

    const team = await callerFor(server, dietitian.token);
    const read = await team.journal.day({ clientId: noora.id });
    expect(read.showNumbers).toBe(false);
    expect(read.totals?.values.energyKcal).toBeGreaterThan(0);
    expect(read.entries[0]?.items[0]?.nutrients?.proteinG).toBeCloseTo(expected('roti', 80, 'proteinG'), 6);
    const teamDays = await api('GET', dietitian.token, `/nutrition/days?clientId=${noora.id}`);
    expect(teamDays.body.data.at(-1).shares.proteinG).toBeGreaterThan(0);
  });
});
