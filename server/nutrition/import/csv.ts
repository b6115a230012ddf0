import type { Db } from '../../db/index.js';
import { createFoodInput } from '../foods-schema.js';
import { type ImportCounts, type ImportedFood, upsertImportedFoods } from '../foods-write.js';
import { FOOD_GROUP_KEYS, FOOD_GROUPS, type FoodGroup } from '../groups.js';
import { MEASURE_KEYS } from '../measures.js';
import { KJ_PER_KCAL, NUTRIENT_KEYS, NUTRIENTS, type NutrientKey, nutrientProblems, round } from '../nutrients.js';
import { CsvSyntaxError, parseCsv } from './csv-text.js';
import type { Rejected } from './report.js';

/**
 * A clinic's own foods from a spreadsheet saved as CSV (docs/foods-csv.md says the format to a
 * person): one food per row, values per 100 g of edible portion in the units of each column's name
 * (protein_g, iron_mg, folate_ug). Every row is checked as the console checks a food it adds
 * (createFoodInput, then the sanity rules); rows that fail are reported with their line and reason
 * and the rest come in, keyed by the file's `id` column (source 'csv'), so importing the file again
 * updates those foods in place.
 */

/** More rows than any food list a clinic keeps; a bigger file is split. */
export const CSV_MAX_ROWS = 20_000;

/** A nutrient's column: its key in snake case (proteinG → protein_g, vitaminB12Ug → vitamin_b12_ug). */
export const nutrientColumn = (key: NutrientKey) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();

const NUTRIENT_COLUMNS = new Map<string, NutrientKey>(NUTRIENT_KEYS.map((k) => [nutrientColumn(k), k]));
const HOUSEHOLD = MEASURE_KEYS.filter((m) => m !== 'g' && m !== 'ml');
const PORTION_PREFIX = 'portion_';
const TEXT_COLUMNS = ['id', 'name', 'name_hi', 'aliases', 'group'] as const;
const REQUIRED_COLUMNS = ['id', 'name', 'group'] as const;

/** Aliases in one cell, separated by | or ; (commas belong to names such as "Rice, parboiled"). */
const splitAliases = (cell: string) =>
  cell
    .split(/[|;]/)
    .map((a) => a.trim())
    .filter(Boolean);

/** A group by its key ("pulses"), its label ("Grain legumes (dals)") or its IFCT letter ("B"). */
export function groupOf(cell: string): FoodGroup | null {
  const text = cell.trim().toLowerCase();
  return (
    FOOD_GROUP_KEYS.find((g) => g === text || FOOD_GROUPS[g].label.toLowerCase() === text || FOOD_GROUPS[g].ifct?.toLowerCase() === text) ??
    null
  );
}

/** A problem with the file as a whole (its header, its quoting): nothing is imported. */
export class CsvFormatError extends Error {}

/** Where each column of the header goes; unknown columns stop the import (a value in an unknown unit is not guessed). */
function readHeader(fields: string[]): Map<number, string> {
  const columns = new Map<number, string>();
  const problems: string[] = [];
  const seen = new Set<string>();
  fields.forEach((raw, i) => {
    const name = raw.trim().toLowerCase();
    if (name === '') return;
    const known =
      (TEXT_COLUMNS as readonly string[]).includes(name) ||
      NUTRIENT_COLUMNS.has(name) ||
      (name.startsWith(PORTION_PREFIX) && (HOUSEHOLD as string[]).includes(name.slice(PORTION_PREFIX.length)));
    if (!known) {
      const like = [...NUTRIENT_COLUMNS.keys()].find((c) => c.split('_')[0] === name.split('_')[0]);
      problems.push(`Column "${raw.trim()}" is not one this import knows${like ? ` (did you mean ${like}?)` : ''}`);
      return;
    }
    if (seen.has(name)) problems.push(`Column "${name}" appears twice`);
    seen.add(name);
    columns.set(i, name);
  });
  for (const required of REQUIRED_COLUMNS) if (!seen.has(required)) problems.push(`The file has no "${required}" column`);
  if (problems.length > 0) throw new CsvFormatError(`${problems.join('. ')}. docs/foods-csv.md lists the columns.`);
  return columns;
}

/** The column a schema problem is about (per100g.proteinG → protein_g). */
const issueColumn = (path: readonly PropertyKey[]) =>
  path[0] === 'per100g' && typeof path[1] === 'string' ? nutrientColumn(path[1] as NutrientKey) : path.map(String).join('.') || 'row';

export type CsvCheck = { total: number; foods: ImportedFood[]; rejected: Rejected[] };

/** Reads and checks every row; nothing is written. */
export function checkFoodsCsv(text: string): CsvCheck {
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new CsvFormatError(error.message);
    throw error;
  }
  const [head, ...rows] = records;
  if (!head) throw new CsvFormatError('The file is empty: it needs a header row and a row per food.');
  if (rows.length > CSV_MAX_ROWS)
    throw new CsvFormatError(`The file has ${rows.length} foods; split it into files of at most ${CSV_MAX_ROWS}.`);
  const columns = readHeader(head.fields);
  const foods: ImportedFood[] = [];
  const rejected: Rejected[] = [];
  const lineOfId = new Map<string, number>();
  for (const row of rows) {
    const cell: Record<string, string> = {};
    for (const [i, name] of columns) cell[name] = (row.fields[i] ?? '').trim();
    const id = cell.id ?? '';
    const name = cell.name ?? '';
    const problems: string[] = [];
    if (row.fields.length > head.fields.length)
      problems.push(
        `The row has ${row.fields.length} fields, more than the header's ${head.fields.length} (a comma inside a value needs quotes)`,
      );
    if (id === '') problems.push('id is empty: each food needs the id it keeps when the file is imported again');
    else if (id.length > 100) problems.push('id must be at most 100 characters');
    else if (lineOfId.has(id)) problems.push(`id ${id} is used on line ${lineOfId.get(id)} already`);
    if (id !== '' && !lineOfId.has(id)) lineOfId.set(id, row.line);

    const per100g: Record<string, number> = {};
    for (const [column, key] of NUTRIENT_COLUMNS) {
      const text = cell[column];
      if (text === undefined || text === '') continue;
      const value = Number(text);
      if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) || !Number.isFinite(value)) {
        problems.push(`${column} "${text}" is not a number (${NUTRIENTS[key].unit} per 100 g; a decimal point, no thousands separators)`);
      } else per100g[key] = value;
    }
    // Energy in either unit gives the other.
    if (per100g.energyKj !== undefined && per100g.energyKcal === undefined) per100g.energyKcal = round(per100g.energyKj / KJ_PER_KCAL, 1);
    if (per100g.energyKcal !== undefined && per100g.energyKj === undefined) per100g.energyKj = round(per100g.energyKcal * KJ_PER_KCAL, 1);

    const portions: { unit: string; grams: number }[] = [];
    for (const unit of HOUSEHOLD) {
      const text = cell[`${PORTION_PREFIX}${unit}`];
      if (text === undefined || text === '') continue;
      const grams = Number(text);
      if (!/^\d+(\.\d+)?$/.test(text)) problems.push(`${PORTION_PREFIX}${unit} "${text}" is not a weight in grams`);
      else portions.push({ unit, grams });
    }
    const groupText = cell.group ?? '';
    const group = groupOf(groupText);
    if (!group) problems.push(groupText === '' ? 'group is empty' : `group "${groupText}" is not one of ${FOOD_GROUP_KEYS.join(', ')}`);

    const parsed = createFoodInput.safeParse({
      name,
      nameHi: cell.name_hi || null,
      aliases: splitAliases(cell.aliases ?? ''),
      group: group ?? 'miscellaneous',
      per100g,
      portions: portions.length > 0 ? portions : undefined,
    });
    if (!parsed.success) problems.push(...parsed.error.issues.map((i) => `${issueColumn(i.path)}: ${i.message}`));
    else problems.push(...nutrientProblems(parsed.data.per100g));

    if (problems.length > 0 || !parsed.success) rejected.push({ ref: id, name, line: row.line, problems });
    else foods.push({ ...parsed.data, sourceRef: id });
  }
  return { total: rows.length, foods, rejected };
}

export type CsvReport = ImportCounts & { total: number; rejected: Rejected[] };

/** Checks the file and imports the rows that passed (a dry run is checkFoodsCsv alone). */
export async function importFoodsCsv(db: Db, text: string, opts: { now?: Date } = {}): Promise<CsvReport> {
  const { total, foods, rejected } = checkFoodsCsv(text);
  const counts =
    foods.length === 0 ? { inserted: 0, updated: 0, unchanged: 0 } : await upsertImportedFoods(db, 'csv', foods, { now: opts.now });
  return { total, rejected, ...counts };
}
