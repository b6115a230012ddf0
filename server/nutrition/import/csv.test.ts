import { describe, expect, it } from 'vitest';
import { KJ_PER_KCAL, NUTRIENT_KEYS } from '../nutrients.js';
import { CsvFormatError, checkFoodsCsv, groupOf, nutrientColumn } from './csv.js';

const HEADER = 'id,name,name_hi,aliases,group,energy_kcal,protein_g,carbohydrate_g,fat_g,fibre_g,iron_mg,portion_katori';

describe('the foods CSV', () => {
  it('names each nutrient column in snake case with its unit', () => {
    expect(NUTRIENT_KEYS.map(nutrientColumn)).toEqual([
      'energy_kcal',
      'energy_kj',
      'protein_g',
      'carbohydrate_g',
      'fat_g',
      'saturated_fat_g',
      'fibre_g',
      'sugars_g',
      'sodium_mg',
      'potassium_mg',
      'calcium_mg',
      'iron_mg',
      'zinc_mg',
      'magnesium_mg',
      'vitamin_a_ug',
      'vitamin_c_mg',
      'folate_ug',
      'vitamin_b12_ug',
      'vitamin_d_ug',
    ]);
  });

  it('takes a group by key, label or IFCT letter', () => {
    expect(groupOf('pulses')).toBe('pulses');
    expect(groupOf('Cooked dishes')).toBe('dishes');
    expect(groupOf('b')).toBe('pulses');
    expect(groupOf('soups')).toBeNull();
  });

  it('accepts sound rows and rejects each bad one with its line and reason', () => {
    const text = [
      HEADER,
      'dal-1,"Dal, toor, cooked",अरहर दाल,toor dal|arhar dal,dishes,116,6.8,17.6,2.2,2.9,1.2,150',
      'bad-number,Poha,,,dishes,abc,3,20,4,1,,',
      'bad-group,Idli,,,tiffin,130,4,27,0.4,1,,',
      'bad-sum,Upma,,,dishes,600,3,20,4,1,,',
      'dal-1,Dal again,,,dishes,100,5,15,2,2,,',
      ',No id,,,dishes,100,5,15,2,2,,',
      '"kheer-1","Kheer",खीर,,dishes,,4,18,5,0,0.2,',
      'neg,Salt,,,condiments-spices,0,0,0,0,0,-1,',
    ].join('\n');
    const { total, foods, rejected } = checkFoodsCsv(text);
    expect(total).toBe(8);
    expect(foods.map((f) => f.sourceRef)).toEqual(['dal-1', 'kheer-1']);
    const dal = foods[0]!;
    expect(dal).toMatchObject({ name: 'Dal, toor, cooked', nameHi: 'अरहर दाल', aliases: ['toor dal', 'arhar dal'], group: 'dishes' });
    expect(dal.per100g).toMatchObject({ energyKcal: 116, energyKj: Math.round(116 * KJ_PER_KCAL * 10) / 10, ironMg: 1.2 });
    expect(dal.portions).toEqual([{ unit: 'katori', grams: 150 }]);
    expect(foods[1]!.per100g.energyKcal).toBeUndefined();
    expect(foods[1]!.portions).toBeUndefined();

    expect(rejected.map((r) => [r.line, r.ref])).toEqual([
      [3, 'bad-number'],
      [4, 'bad-group'],
      [5, 'bad-sum'],
      [6, 'dal-1'],
      [7, ''],
      [9, 'neg'],
    ]);
    expect(rejected[0]!.problems[0]).toMatch(/^energy_kcal "abc" is not a number/);
    expect(rejected[1]!.problems[0]).toMatch(/^group "tiffin" is not one of/);
    expect(rejected[2]!.problems[0]).toMatch(/^Energy 600 kcal is far from/);
    expect(rejected[3]!.problems[0]).toBe('id dal-1 is used on line 2 already');
    expect(rejected[4]!.problems[0]).toMatch(/^id is empty/);
    expect(rejected[5]!.problems[0]).toBe('iron_mg: Iron cannot be negative');
  });

  it('refuses a file with unknown or missing columns before reading any row', () => {
    expect(() => checkFoodsCsv('id,name,group,iron_g\n1,x,pulses,3')).toThrow(CsvFormatError);
    expect(() => checkFoodsCsv('id,name,group,iron_g\n1,x,pulses,3')).toThrow(
      /Column "iron_g" is not one this import knows \(did you mean iron_mg\?\)/,
    );
    expect(() => checkFoodsCsv('name,energy_kcal\nx,1')).toThrow(/no "id" column.*no "group" column/);
    expect(() => checkFoodsCsv('')).toThrow(/empty/);
    expect(() => checkFoodsCsv('id,name,group\n1,"x,pulses')).toThrow(/Line 2: a quoted field is never closed/);
  });
});
