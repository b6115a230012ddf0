import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADLINE_NUTRIENTS } from '../../server/nutrition/nutrients.js';
import { ICMR_NIN_2020_ADULT, suggestTargets } from '../../server/nutrition/targets-suggest.js';
import { callerFor, failure } from '../helpers/callers.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * A client's daily targets over tRPC and REST: the suggestion's numbers for a known person, the
 * dietitian sets (with macros in grams or % of energy), the client reads their own, another client
 * is refused, and while numbers are hidden the client's answers carry none.
 */
let server: TestServer;
let asha: TestUser;
let rohan: TestUser;
let dietitian: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [asha, rohan, dietitian] = await Promise.all([
    server.user({ firstName: 'Asha', heightM: 1.6, weightKg: 60 }),
    server.user({ firstName: 'Rohan' }),
    server.user({ role: 'admin', firstName: 'Meera' }),
  ]);
}, 180_000);
afterAll(() => server?.stop());

describe('the suggestion', () => {
  it('works out a known woman’s day: Mifflin–St Jeor × activity, protein per kg, fat share, carbohydrate the rest', () => {
    // 30 years, 60 kg, 160 cm: 10×60 + 6.25×160 − 5×30 − 161 = 1289 kcal at rest; × 1.2 sedentary = 1546.8.
    const s = suggestTargets({
      ageYears: 30,
      sex: 'female',
      weightKg: 60,
      heightCm: 160,
      activity: 'sedentary',
      proteinGPerKg: 0.83,
      fatPercent: 25,
    });
    expect(s.restingKcal).toBe(1289);
    expect(s.targets.energyKcal).toBe(1547);
    expect(s.targets.proteinG).toBe(49.8); // 0.83 × 60
    expect(s.targets.fatG).toBe(43); // 1547 × 25 % ÷ 9 = 42.97
    expect(s.targets.carbohydrateG).toBe(240.2); // (1547 − 4×49.8 − 9×43) ÷ 4
    expect(s.targets.fibreG).toBe(21.7); // 14 g per 1000 kcal
    expect(s.targets.ironMg).toBe(29);
    expect(s.targets.calciumMg).toBe(1000);
    expect(s.targets.vitaminB12Ug).toBe(2.5);
    const macroKcal = 4 * s.targets.proteinG! + 4 * s.targets.carbohydrateG! + 9 * s.targets.fatG!;
    expect(Math.abs(macroKcal - s.targets.energyKcal!)).toBeLessThan(1);
  });

  it('a man’s: +5 rather than −161, and the man’s RDAs', () => {
    const s = suggestTargets({
      ageYears: 40,
      sex: 'male',
      weightKg: 75,
      heightCm: 172,
      activity: 'moderate',
      proteinGPerKg: 1,
      fatPercent: 30,
    });
    // 750 + 1075 − 200 + 5 = 1630; × 1.55 = 2526.5 → 2527 (rounded half up)
    expect(s.restingKcal).toBe(1630);
    expect(s.targets.energyKcal).toBe(2527);
    expect(s.targets.proteinG).toBe(75);
    expect(s.targets.ironMg).toBe(ICMR_NIN_2020_ADULT.male.ironMg);
    expect(s.recommended.zincMg).toBe(17);
  });

  it('comes from the client’s record, the dietitian filling what it lacks; what is still missing is named', async () => {
    const meera = await callerFor(server, dietitian.token);
    const missing = await failure(meera.nutritionTargets.suggest({ clientId: asha.id }));
    expect(missing.code).toBe('BAD_REQUEST');
    expect(missing.message).toMatch(/age|sex|activity/i);
    const s = await meera.nutritionTargets.suggest({ clientId: asha.id, person: { ageYears: 30, sex: 'female', activity: 'sedentary' } });
    expect(s.fromRecord).toMatchObject({ heightCm: 160, weightKg: 60 });
    expect(s.targets.energyKcal).toBe(1547);
    const rest = await server.request('POST', `/api/nutrition-targets/suggestion?clientId=${asha.id}`, {
      token: dietitian.token,
      body: { person: { ageYears: 30, sex: 'female', activity: 'sedentary' } },
    });
    expect(rest.status).toBe(200);
    expect(rest.body.data.targets.proteinG).toBe(49.8);
    const client = await server.request('POST', `/api/nutrition-targets/suggestion?clientId=${asha.id}`, { token: asha.token, body: {} });
    expect(client.status).toBe(403);
  });
});

describe('setting and reading targets', () => {
  it('a client has none until the dietitian sets them, and reads them then; macros may be given as % of energy', async () => {
    const own = await server.request('GET', '/api/nutrition-targets', { token: asha.token });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ clientId: asha.id, set: false, showNumbers: true, targets: {} });

    const put = await server.request('PUT', `/api/nutrition-targets?clientId=${asha.id}`, {
      token: dietitian.token,
      body: {
        targets: { energyKcal: 1600, fibreG: 25, ironMg: 29 },
        percentOfEnergy: { proteinG: 15, carbohydrateG: 55, fatG: 30 },
        showNumbers: true,
      },
    });
    expect(put.status).toBe(200);
    // 1600 × 15 % ÷ 4 = 60 g; × 55 % ÷ 4 = 220 g; × 30 % ÷ 9 = 53.3 g
    expect(put.body.data.targets).toEqual({ energyKcal: 1600, proteinG: 60, carbohydrateG: 220, fatG: 53.3, fibreG: 25, ironMg: 29 });
    expect(put.body.data.micronutrients).toEqual(['ironMg']);

    const asClient = await callerFor(server, asha.token);
    const mine = await asClient.nutritionTargets.get({});
    expect(mine.set).toBe(true);
    expect(mine.targets?.proteinG).toBe(60);
    expect(mine.basis?.percentOfEnergy).toEqual({ proteinG: 15, carbohydrateG: 55, fatG: 30 });
    for (const key of HEADLINE_NUTRIENTS) expect(mine.targets?.[key]).toBeGreaterThan(0);
  });

  it('refuses bad input with a message a person can act on, and leaves the targets as they were', async () => {
    const bad = async (body: unknown) =>
      server.request('PUT', `/api/nutrition-targets?clientId=${asha.id}`, { token: dietitian.token, body });
    const negative = await bad({ targets: { proteinG: -5 }, showNumbers: true });
    expect(negative.status).toBe(400);
    expect(negative.body.message).toMatch(/Protein target must be more than 0/);
    const huge = await bad({ targets: { energyKcal: 90_000 }, showNumbers: true });
    expect(huge.status).toBe(400);
    expect(huge.body.message).toMatch(/Energy target cannot be more than 8000 kcal/);
    const noEnergy = await bad({ targets: {}, percentOfEnergy: { proteinG: 20 }, showNumbers: true });
    expect(noEnergy.status).toBe(400);
    expect(noEnergy.body.message).toMatch(/energy target/i);
    const overfull = await bad({
      targets: { energyKcal: 2000 },
      percentOfEnergy: { proteinG: 40, carbohydrateG: 50, fatG: 30 },
      showNumbers: true,
    });
    expect(overfull.status).toBe(400);
    expect(overfull.body.message).toMatch(/120 % of energy/);
    const unknown = await bad({ targets: { caffeineMg: 100 }, showNumbers: true });
    expect(unknown.status).toBe(400);
    const noSwitch = await bad({ targets: { energyKcal: 1800 } });
    expect(noSwitch.status).toBe(400);
    expect(noSwitch.body.message).toMatch(/showNumbers/);
    const still = await server.request('GET', '/api/nutrition-targets', { token: asha.token });
    expect(still.body.data.targets.energyKcal).toBe(1600);
  });

  it('only a dietitian sets targets; a client reads only their own; a missing client is 404', async () => {
    const byClient = await server.request('PUT', `/api/nutrition-targets?clientId=${asha.id}`, {
      token: asha.token,
      body: { targets: { energyKcal: 3000 }, showNumbers: true },
    });
    expect(byClient.status).toBe(403);
    const other = await server.request('GET', `/api/nutrition-targets?clientId=${asha.id}`, { token: rohan.token });
    expect(other.status).toBe(403);
    const anonymous = await server.request('GET', '/api/nutrition-targets');
    expect(anonymous.status).toBe(401);
    const nobody = await server.request('GET', '/api/nutrition-targets?clientId=99999999', { token: dietitian.token });
    expect(nobody.status).toBe(404);
    const unnamed = await server.request('GET', '/api/nutrition-targets', { token: dietitian.token });
    expect(unnamed.status).toBe(400);
  });
});

describe('numbers hidden from the client', () => {
  it('the client’s answer carries no number at all; the dietitian still reads them', async () => {
    const meera = await callerFor(server, dietitian.token);
    await meera.nutritionTargets.set({
      clientId: rohan.id,
      targets: { energyKcal: 2200, proteinG: 70, calciumMg: 1000 },
      showNumbers: false,
    });

    const own = await server.request('GET', '/api/nutrition-targets', { token: rohan.token });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ set: true, showNumbers: false, targets: null, basis: null, micronutrients: [] });
    const numbers: number[] = [];
    JSON.stringify(own.body.data, (key, value) => {
      if (typeof value === 'number' && key !== 'clientId') numbers.push(value);
      return value;
    });
    expect(numbers).toEqual([]);
    const trpcOwn = await (await callerFor(server, rohan.token)).nutritionTargets.get({});
    expect(trpcOwn.targets).toBeNull();

    const seen = await meera.nutritionTargets.get({ clientId: rohan.id });
    expect(seen.targets).toEqual({ energyKcal: 2200, proteinG: 70, calciumMg: 1000 });
    expect(seen.showNumbers).toBe(false);

    await meera.nutritionTargets.set({ clientId: rohan.id, targets: { energyKcal: 2200, proteinG: 70 }, showNumbers: true });
    const back = await server.request('GET', '/api/nutrition-targets', { token: rohan.token });
    expect(back.body.data.targets).toEqual({ energyKcal: 2200, proteinG: 70 });
  });

  it('each change is in the audit trail', async () => {
    const rows = await server.deps.db
      .selectFrom('audit_log')
      .select(['action', 'entity_id'])
      .where('action', '=', 'nutrition-targets.set')
      .where('entity_id', '=', rohan.id)
      .execute();
    expect(rows.length).toBe(2);
  });
});
