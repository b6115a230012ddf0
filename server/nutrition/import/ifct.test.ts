import { describe, expect, it } from 'vitest';
import { FOOD_GROUPS } from '../groups.js';
import { HINDI_NAMES } from '../hindi-names.js';
import { KJ_PER_KCAL } from '../nutrients.js';
import { checkRepresentations, ifctFood, ifctGroup, ifctNutrients, localNames, readIfctRows } from './ifct.js';

const rows = readIfctRows();
const row = (code: string) => {
  const found = rows.find((r) => r.code === code);
  if (!found) throw new Error(`no IFCT row ${code}`);
  return found;
};

describe('IFCT 2017 mapping', () => {
  it('reads all 542 foods of the package, whose columns are in grams and kJ as the mapping expects', () => {
    expect(rows).toHaveLength(542);
    expect(() => checkRepresentations()).not.toThrow();
  });

  it('converts grams to mg and µg and kJ to kcal (the package stores iron 0.0041 g for atta)', () => {
    const atta = ifctNutrients(row('A019'));
    expect(row('A019').fe).toBe('0.0041');
    expect(atta.ironMg).toBeCloseTo(4.1, 6);
    expect(atta.energyKj).toBe(1340);
    expect(atta.energyKcal).toBeCloseTo(1340 / KJ_PER_KCAL, 1);
    expect(atta.folateUg).toBeCloseTo(29.22, 6);
    expect(atta.vitaminB12Ug).toBeUndefined();
  });

  it('gives vitamin A as µg RAE: retinol + β-carotene/12 + (α-carotene + β-cryptoxanthin)/24', () => {
    // Carrot: β-carotene 5423 µg, α-carotene 2654 µg.
    expect(ifctNutrients(row('F002')).vitaminAUg).toBeCloseTo(5423 / 12 + 2654 / 24, 2);
    // Hen's egg: retinol 198 µg, β-carotene 13.6 µg, β-cryptoxanthin 0.97 µg.
    expect(ifctNutrients(row('M001')).vitaminAUg).toBeCloseTo(198 + 13.6 / 12 + 0.97 / 24, 2);
  });

  it('keeps a proximate 0 of an analysed food, leaves an unanalysed micronutrient unknown and derives an oil’s energy from its fat', () => {
    const egg = ifctNutrients(row('M001'));
    expect(egg.fibreG).toBe(0);
    expect(egg.vitaminCMg).toBeUndefined();
    const ghee = ifctNutrients(row('T013'));
    expect(ghee.fatG).toBe(100);
    expect(ghee.energyKj).toBe(3700);
    expect(ghee.energyKcal).toBeCloseTo(3700 / KJ_PER_KCAL, 1);
    expect(ghee.ironMg).toBeUndefined();
  });

  it('takes the group from the code letter', () => {
    expect(ifctGroup('A019')).toBe('cereals');
    expect(ifctGroup('L003')).toBe('milk');
    expect(ifctGroup('T013')).toBe('oils-fats');
    expect(ifctGroup('Z001')).toBeNull();
  });

  it('lists local names Hindi first, without languages or the place of collection', () => {
    expect(localNames('B. Chena; E. Cottage Cheese; H. Chhena; Kan. Tali; Mal. Palkatti.')).toEqual([
      'Chhena',
      'Cottage Cheese',
      'Chena',
      'Tali',
      'Palkatti',
    ]);
    expect(localNames('A.Pani singora; H., Mar. Shingara; O. Pani singhara; [Place of collection: Kochi]')).toEqual([
      'Shingara',
      'Pani singora',
      'Pani singhara',
    ]);
    expect(localNames('E. Tenpounder, Ladyfish; Tam. Poomeen/Ullahti')).toEqual(['Tenpounder', 'Ladyfish', 'Poomeen', 'Ullahti']);
  });

  it('makes paneer a food with its Hindi name, our aliases and IFCT’s local names', () => {
    const result = ifctFood(row('L003'));
    if (!result.ok) throw new Error(result.rejected.problems.join('; '));
    expect(result.food).toMatchObject({ name: 'Paneer', nameHi: 'पनीर', group: 'milk', sourceRef: 'L003' });
    expect(result.food.aliases).toEqual(expect.arrayContaining(['panir', 'chhena', 'cottage cheese', 'Palkatti']));
    // Each name once, case aside; the English name is not repeated among the aliases.
    const lower = result.food.aliases.map((a) => a.toLowerCase());
    expect(new Set(lower).size).toBe(lower.length);
    expect(lower).not.toContain('paneer');
  });

  it('rejects a food the sanity rules refuse, with the reason', () => {
    const broken = { ...row('P063') };
    const result = ifctFood(broken);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.rejected.problems[0]).toMatch(/Saturated fat .* is more than total fat/);
  });
});

describe('Hindi names', () => {
  const codes = new Set(rows.map((r) => r.code));
  it('name at least 150 IFCT foods, each by a code IFCT has, in Devanagari, with Latin aliases', () => {
    const entries = Object.entries(HINDI_NAMES);
    expect(entries.length).toBeGreaterThanOrEqual(150);
    for (const [code, { hi, aliases }] of entries) {
      expect(codes.has(code), code).toBe(true);
      expect(hi, code).toMatch(/^[\u0900-\u097F\s(),.'/-]+$/u);
      expect(aliases.length, code).toBeGreaterThan(0);
    }
    expect(Object.keys(FOOD_GROUPS).length).toBeGreaterThan(0);
  });

  it('find red gram by toor and arhar, atta, paneer, moong, chana, rajma, methi, palak and bhindi', () => {
    const has = (code: string, alias: string) => expect(HINDI_NAMES[code]?.aliases, `${code} ${alias}`).toContain(alias);
    has('B021', 'toor dal');
    has('B021', 'arhar dal');
    has('B022', 'toor');
    has('A019', 'atta');
    has('L003', 'paneer');
    has('B011', 'moong');
    has('B002', 'chana');
    has('B020', 'rajma');
    has('C020', 'methi');
    has('C033', 'palak');
    has('D056', 'bhindi');
  });
});
