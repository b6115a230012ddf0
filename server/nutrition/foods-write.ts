import type { z } from 'zod';
import type { Db, Tx } from '../db/index.js';
import { badRequest, notFound } from '../errors.js';
import type { createFoodInput, updateFoodInput } from './foods-schema.js';
import { lockFood, replacePortions } from './foods-repo.js';
import * as repo from './foods-write-repo.js';
import type { FoodSource, NameRow } from './foods-write-repo.js';
import { defaultPortions, type FoodGroup } from './groups.js';
import type { Portion } from './measures.js';
import { type Nutrients, nutrientProblems } from './nutrients.js';
import { recomputeRecipesUsing } from './recipes-values.js';

/**
 * The one way a food gets into the library, whatever its source: the IFCT and CSV importers, the
 * console and the REST API (POST/PATCH), the demo. A food is its row in `foods` with its names in
 * `food_names` (the English and Hindi names, then the aliases: every name search finds it by) and its
 * household portions in `food_portions`. Every write applies the sanity rules (nutrientProblems);
 * callers validate the shape with foods-schema.ts and record the audit entry.
 */

export type { FoodSource } from './foods-write-repo.js';

/** A food as createFoodInput gives it, and where it came from. */
export type FoodWrite = z.output<typeof createFoodInput> & {
  source?: FoodSource;
  /** Its id at the source (an IFCT code, a CSV's id column); with `source`, what makes an import idempotent. */
  sourceRef?: string | null;
  createdBy?: number | null;
  /** A recipe's cooked and serving weights (recipes only; its values come from its ingredients). */
  recipe?: { cookedGrams: number; servingGrams: number | null };
};

export type FoodPatch = z.output<typeof updateFoodInput>;

/** The sanity rules as a 400 a dietitian can act on, naming each problem. */
function assertSound(per100g: Nutrients): void {
  const problems = nutrientProblems(per100g);
  if (problems.length > 0) throw badRequest(`These values do not add up: ${problems.join('; ')}.`, { per100g: problems });
}

/** Runs `work` in the caller's transaction, or in a new one. */
function inTransaction<T>(db: Db, work: (trx: Tx) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Tx) : db.transaction().execute(work);
}

/** Devanagari text is Hindi; anything else (English, a transliteration such as "toor") is filed under 'en'. */
export const nameLang = (name: string): 'en' | 'hi' => (/\p{Script=Devanagari}/u.test(name) ? 'hi' : 'en');

/** A food's name rows: its English and Hindi names first, then aliases, each name once (case aside). */
export function nameRows(foodId: number, name: string, nameHi: string | null, aliases: readonly string[]): NameRow[] {
  const seen = new Set<string>();
  const rows: NameRow[] = [];
  const add = (text: string, isAlias: boolean) => {
    const key = text.trim().toLowerCase();
    if (key === '' || seen.has(key)) return;
    seen.add(key);
    rows.push({ food_id: foodId, name: text.trim(), lang: nameLang(text), is_alias: isAlias });
  };
  add(name, false);
  if (nameHi) add(nameHi, false);
  for (const alias of aliases) add(alias, true);
  return rows;
}

/** Adds a food with its names and portions (the group's defaults when none are given); its id. */
export async function saveFood(db: Db, input: FoodWrite, opts: { now?: Date } = {}): Promise<{ id: number }> {
  assertSound(input.per100g);
  const now = opts.now ?? new Date();
  return inTransaction(db, async (trx) => {
    const id = await repo.insertFood(
      trx,
      {
        kind: input.recipe ? 'recipe' : 'food',
        name: input.name,
        nameHi: input.nameHi,
        group: input.group,
        source: input.source ?? 'clinic',
        sourceRef: input.sourceRef ?? null,
        per100g: input.per100g,
        cookedGrams: input.recipe?.cookedGrams ?? null,
        servingGrams: input.recipe?.servingGrams ?? null,
        createdBy: input.createdBy ?? null,
      },
      now,
    );
    await repo.addNames(trx, nameRows(id, input.name, input.nameHi, input.aliases));
    const portions = input.portions ?? defaultPortions(input.group);
    await repo.addPortions(
      trx,
      portions.map((p) => ({ food_id: id, unit: p.unit, grams: p.grams })),
    );
    return { id };
  });
}

/**
 * Changes the fields sent: names (the aliases replace the old ones), group, values per 100 g (the
 * whole set; checked by the sanity rules) and portions (the whole set). A recipe's values follow
 * from its ingredients, so they are not set here.
 */
export async function updateFood(db: Db, patch: FoodPatch, opts: { now?: Date } = {}): Promise<{ id: number }> {
  if (patch.per100g) assertSound(patch.per100g);
  const now = opts.now ?? new Date();
  return inTransaction(db, async (trx) => {
    const food = await lockFood(trx, patch.id);
    if (!food) throw notFound('There is no such food.');
    if (patch.per100g && food.kind === 'recipe') {
      throw badRequest("A recipe's values come from its ingredients: change its ingredients or cooked weight instead.", {
        per100g: ['A recipe takes its values from its ingredients'],
      });
    }
    const current = await repo.foodNamesOf(trx, patch.id);
    const name = patch.name ?? current.name;
    const nameHi = patch.nameHi !== undefined ? patch.nameHi : current.name_hi;
    await repo.updateFoodRow(trx, patch.id, { name, nameHi, group: patch.group, per100g: patch.per100g }, now);
    if (patch.name !== undefined || patch.nameHi !== undefined || patch.aliases !== undefined) {
      const aliases = patch.aliases ?? (await repo.aliasesOf(trx, patch.id));
      await repo.replaceNames(trx, patch.id, nameRows(patch.id, name, nameHi, aliases));
    }
    if (patch.portions) await replacePortions(trx, patch.id, patch.portions, now);
    return { id: patch.id };
  });
}

/** A food an importer brings in: checked already (createFoodInput and the sanity rules), keyed by its id at the source. */
export type ImportedFood = z.output<typeof createFoodInput> & { sourceRef: string };

export type ImportCounts = { inserted: number; updated: number; unchanged: number };

/** Rows per statement: well under Postgres's 65,535 parameters, small enough for the embedded database. */
const CHUNK = 200;
const chunks = <T>(list: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
};

/**
 * Brings a source's foods in, idempotently: a food already there (same source and `sourceRef`)
 * is updated in place, keeping its id, so plans and meals that use it keep working; one that has
 * not changed is left alone. Its English and Hindi names follow the source; aliases and portions
 * are added, never removed, so a dietitian's own aliases and portion weights survive a re-import.
 * An archived food stays archived. One transaction: all or nothing.
 */
export async function upsertImportedFoods(
  db: Db,
  source: Exclude<FoodSource, 'clinic'>,
  foods: readonly ImportedFood[],
  opts: { now?: Date } = {},
): Promise<ImportCounts> {
  for (const food of foods) assertSound(food.per100g);
  const refs = new Set<string>();
  for (const food of foods) {
    if (refs.has(food.sourceRef)) throw badRequest(`The id ${food.sourceRef} appears twice; each food needs its own id.`);
    refs.add(food.sourceRef);
  }
  const now = opts.now ?? new Date();
  return inTransaction(db, async (trx) => {
    const counts: ImportCounts = { inserted: 0, updated: 0, unchanged: 0 };
    const ids = new Map<string, number>();
    for (const part of chunks(foods)) {
      for (const row of await repo.upsertSourcedFoods(trx, source, part, now)) {
        ids.set(row.source_ref as string, row.id);
        if (row.inserted) counts.inserted += 1;
        else counts.updated += 1;
      }
    }
    const missing = foods.filter((f) => !ids.has(f.sourceRef)).map((f) => f.sourceRef);
    for (const part of chunks(missing)) {
      for (const row of await repo.idsBySourceRef(trx, source, part)) ids.set(row.source_ref as string, row.id);
    }
    counts.unchanged = missing.length;

    const idOf = (f: ImportedFood) => ids.get(f.sourceRef) as number;
    // The English and Hindi names are the source's: the old ones go, the aliases stay.
    for (const part of chunks(foods)) await repo.deletePrimaryNames(trx, part.map(idOf));
    for (const part of chunks(foods.flatMap((f) => nameRows(idOf(f), f.name, f.nameHi, f.aliases)))) {
      await repo.addNames(trx, part);
      // A name that is now the food's English or Hindi name may have been among its aliases.
      await repo.promoteToPrimary(
        trx,
        part.filter((n) => !n.is_alias),
      );
    }
    const portions = foods.flatMap((f) =>
      (f.portions ?? defaultPortions(f.group as FoodGroup)).map((p: Portion) => ({ food_id: idOf(f), unit: p.unit, grams: p.grams })),
    );
    for (const part of chunks(portions)) await repo.addPortions(trx, part);
    // Recipes made with these foods take their new values.
    if (counts.updated > 0) await recomputeRecipesUsing(trx, [...ids.values()], now);
    return counts;
  });
}
