import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteFoodUse } from '../../server/nutrition/search.js';
import { callerFor, failure } from '../helpers/callers.js';
import { seedFoods, TEST_FOODS } from '../helpers/foods.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * Food search through the `foods` procedures: any name or alias in English, Devanagari or a
 * transliteration, typos forgiven, ranked exact, prefix, the person's own foods, similarity;
 * archived foods out of search but kept by id; a blank query gives the person's recent foods.
 */
let server: TestServer;
let asha: TestUser;
let ravi: TestUser;
let ids: Record<keyof typeof TEST_FOODS, number>;

beforeAll(async () => {
  server = await startTestServer();
  [asha, ravi] = await Promise.all([server.user({ firstName: 'Asha' }), server.user({ firstName: 'Ravi' })]);
  ids = await seedFoods(server.deps.db, TEST_FOODS);
}, 600_000);
afterAll(async () => {
  await server?.stop();
});

const search = async (user: TestUser, q: string, limit?: number) =>
  (await (await callerFor(server, user.token)).foods.search({ q, limit })).map((f) => f.id);

describe('food search', () => {
  it('finds a food by its English name, Hindi name, or any alias, the exact name first', async () => {
    expect((await search(asha, 'paneer'))[0]).toBe(ids.paneer);
    expect((await search(asha, 'पनीर'))[0]).toBe(ids.paneer);
    expect((await search(asha, 'cottage cheese'))[0]).toBe(ids.paneer);
    expect((await search(asha, 'toor'))[0]).toBe(ids.redGramWhole);
    expect(await search(asha, 'toor')).toContain(ids.redGramDal);
    expect((await search(asha, 'arhar dal'))[0]).toBe(ids.redGramDal);
    expect((await search(asha, 'अरहर'))[0]).toBe(ids.redGramDal);
    expect((await search(asha, 'Besan'))[0]).toBe(ids.chickpeaFlour);
  });

  it('forgives typos: "panner" finds paneer and palak paneer, "tor dal" red gram dal, "moongfali" peanut', async () => {
    const panner = await search(asha, 'panner');
    expect(panner.slice(0, 2)).toContain(ids.paneer);
    // One wrong letter in a word of a longer name too.
    expect(panner).toContain(ids.palakPaneer);
    expect(await search(asha, 'tor dal')).toContain(ids.redGramDal);
    expect(await search(asha, 'moongfali')).toContain(ids.peanut);
  });

  it('ranks a name equal to the text before names that start with it, and those before the rest', async () => {
    const atta = await search(asha, 'atta');
    expect(atta.slice(0, 2)).toEqual([ids.atta, ids.attaBiscuit]);
    const pea = await search(asha, 'pea');
    // Peanut and Peas start with "pea"; "pigeon pea" has a word that does; the chickpeas only contain it.
    expect(pea.slice(0, 3).sort()).toEqual([ids.peanut, ids.peas, ids.redGramDal].sort());
    expect(pea.indexOf(ids.chickpeaWhole)).toBeGreaterThan(2);
  });

  it("puts the person's own foods right after the exact and prefix matches, for that person only", async () => {
    const before = await search(ravi, 'pea');
    expect(before.indexOf(ids.chickpeaWhole)).toBeLessThan(before.indexOf(ids.chickpeaFlour));
    await noteFoodUse(server.deps.db, asha.id, [ids.chickpeaFlour, ids.chickpeaFlour]);
    const mine = await search(asha, 'pea');
    expect(mine.indexOf(ids.chickpeaFlour)).toBe(3);
    expect(mine.indexOf(ids.chickpeaFlour)).toBeLessThan(mine.indexOf(ids.chickpeaWhole));
    expect(await search(ravi, 'pea')).toEqual(before);
  });

  it('matches two letters by the start of a name or a word, one letter by the start of a name', async () => {
    expect((await search(asha, 'pa')).sort()).toEqual([ids.paneer, ids.palakPaneer].sort());
    // "gram flour", "groundnut", "Peas, green" and the two "Red gram"s.
    expect((await search(asha, 'gr')).sort()).toEqual([ids.chickpeaFlour, ids.peanut, ids.peas, ids.redGramDal, ids.redGramWhole].sort());
    expect((await search(asha, 'b')).sort()).toEqual([ids.chickpeaFlour].sort());
    expect(await search(asha, 'x')).toEqual([]);
  });

  it('reads %, _ and \\ as themselves, never as a pattern', async () => {
    expect(await search(asha, '%')).toEqual([]);
    expect(await search(asha, '___')).toEqual([]);
    expect(await search(asha, 'a\\')).toEqual([]);
  });

  it('leaves archived foods out of search, but keeps them by id', async () => {
    expect(await search(asha, 'vanaspati')).toEqual([]);
    const caller = await callerFor(server, asha.token);
    const found = await caller.foods.byIds({ ids: [ids.oldVanaspati, ids.paneer, 999_999, ids.paneer] });
    expect(found.map((f) => f.id)).toEqual([ids.oldVanaspati, ids.paneer]);
    expect((await caller.foods.get({ id: ids.oldVanaspati })).archived).toBe(true);
  });

  it('answers every food as a summary: Hindi name, group, values per 100 g, portions', async () => {
    const caller = await callerFor(server, asha.token);
    const [paneer] = await caller.foods.search({ q: 'paneer', limit: 1 });
    expect(paneer).toEqual({
      id: ids.paneer,
      kind: 'food',
      name: 'Paneer',
      nameHi: 'पनीर',
      group: 'milk',
      source: 'clinic',
      per100g: { energyKcal: 258, proteinG: 18.9, carbohydrateG: 1.2, fatG: 19.8, calciumMg: 476 },
      portions: [{ unit: 'piece', grams: 25 }],
      servingGrams: null,
    });
    const detail = await caller.foods.get({ id: ids.redGramDal });
    expect(detail.aliases.sort()).toEqual(['arhar dal', 'pigeon pea, split', 'toor dal', 'tur dal']);
    expect(detail.ingredients).toEqual([]);
  });

  it("answers a blank query with the person's recent foods, latest first", async () => {
    const caller = await callerFor(server, ravi.token);
    expect(await caller.foods.search({ q: '   ' })).toEqual([]);
    await noteFoodUse(server.deps.db, ravi.id, [ids.atta], new Date(Date.now() - 60_000));
    await noteFoodUse(server.deps.db, ravi.id, [ids.peas, ids.oldVanaspati]);
    expect((await caller.foods.search({ q: '' })).map((f) => f.id)).toEqual([ids.peas, ids.atta]);
    expect((await caller.foods.recent({ limit: 1 })).map((f) => f.id)).toEqual([ids.peas]);
  });

  it('refuses a bad limit, an overlong query and a signed-out caller', async () => {
    const caller = await callerFor(server, asha.token);
    expect((await failure(caller.foods.search({ q: 'dal', limit: 0 }))).message).toBe('limit must be between 1 and 50');
    expect((await failure(caller.foods.search({ q: 'd'.repeat(101) }))).message).toBe('q must be at most 100 characters');
    expect((await failure(caller.foods.byIds({ ids: Array.from({ length: 201 }, (_, i) => i + 1) }))).message).toBe(
      'ids must list at most 200 foods',
    );
    expect((await failure((await callerFor(server)).foods.search({ q: 'dal' }))).code).toBe('UNAUTHORIZED');
  });
});
