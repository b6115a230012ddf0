import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db, Tx } from '../db/index.js';
import { badRequest, notFound } from '../errors.js';
import type { createFoodInput, updateFoodInput } from './foods-schema.js';
import { lockFood, replacePortions } from './foods-repo.js';
import { defaultPortions, type FoodGroup } from './groups.js';
import type { Portion } from './measures.js';
import { type Nutrients, nutrientProblems } from './nutrients.js';

/**
 * The one way a food gets into the library, whatever its source: the IFCT and CSV importers, the
 * console and the REST API (POST/PATCH), the demo. A food is its row in `foods` with its names in
 * `food_names` (the English and Hindi names, then the aliases: every name search finds it by) and its
 * household portions in `food_portions`. Every write applies the sanity rules (nutrientProblems);
 * callers validate the shape with foods-schema.ts and record the audit entry.
 */

export type FoodSource = 'ifct2017' | 'csv' | 'clinic';

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

type NameRow = { food_id: number; name: string; lang: 'en' | 'hi'; is_alias: boolean };

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
    const { id } = await trx
      .insertInto('foods')
      .values({
        kind: input.recipe ? 'recipe' : 'food',
        name: input.name,
        name_hi: input.nameHi,
        food_group: input.group,
        source: input.source ?? 'clinic',
        source_ref: input.sourceRef ?? null,
        per_100g: JSON.stringify(input.per100g),
        cooked_grams: input.recipe?.cookedGrams ?? null,
        serving_grams: input.recipe?.servingGrams ?? null,
        created_by: input.createdBy ?? null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('food_names')
      .values(nameRows(id, input.name, input.nameHi, input.aliases))
      .execute();
    const portions = input.portions ?? defaultPortions(input.group);
    if (portions.length > 0) {
      await trx
        .insertInto('food_portions')
        .values(portions.map((p) => ({ food_id: id, unit: p.unit, grams: p.grams })))
        .execute();
    }
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
    const current = await trx.selectFrom('foods').select(['name', 'name_hi']).where('id', '=', patch.id).executeTakeFirstOrThrow();
    const name = patch.name ?? current.name;
    const nameHi = patch.nameHi !== undefined ? patch.nameHi : current.name_hi;
    await trx
      .updateTable('foods')
      .set({
        name,
        name_hi: nameHi,
        ...(patch.group ? { food_group: patch.group } : {}),
        ...(patch.per100g ? { per_100g: JSON.stringify(patch.per100g) } : {}),
        updated_at: now,
      })
      .where('id', '=', patch.id)
      .execute();
    if (patch.name !== undefined || patch.nameHi !== undefined || patch.aliases !== undefined) {
      const aliases =
        patch.aliases ??
        (
          await trx
            .selectFrom('food_names')
            .select('name')
            .where('food_id', '=', patch.id)
            .where('is_alias', '=', true)
            .orderBy('name')
            .execute()
        ).map((r) => r.name);
      await trx.deleteFrom('food_names').where('food_id', '=', patch.id).execute();
      await trx
        .insertInto('food_names')
        .values(nameRows(patch.id, name, nameHi, aliases))
        .execute();
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
      const written = await trx
        .insertInto('foods')
        .values(
          part.map((f) => ({
            name: f.name,
            name_hi: f.nameHi,
            food_group: f.group,
            source,
            source_ref: f.sourceRef,
            per_100g: JSON.stringify(f.per100g),
            created_at: now,
            updated_at: now,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['source', 'source_ref'])
            .where('source_ref', 'is not', null)
            .doUpdateSet({
              name: (eb) => eb.ref('excluded.name'),
              name_hi: (eb) => eb.ref('excluded.name_hi'),
              food_group: (eb) => eb.ref('excluded.food_group'),
              per_100g: (eb) => eb.ref('excluded.per_100g'),
              updated_at: (eb) => eb.ref('excluded.updated_at'),
            })
            .where(
              sql<boolean>`(foods.name, foods.name_hi, foods.food_group, foods.per_100g) is distinct from
                (excluded.name, excluded.name_hi, excluded.food_group, excluded.per_100g)`,
            ),
        )
        // xmax is 0 on a row this statement inserted, the updating transaction's id on one it updated.
        .returning(['id', 'source_ref', sql<boolean>`xmax = 0`.as('inserted')])
        .execute();
      for (const row of written) {
        ids.set(row.source_ref as string, row.id);
        if (row.inserted) counts.inserted += 1;
        else counts.updated += 1;
      }
    }
    const missing = foods.filter((f) => !ids.has(f.sourceRef)).map((f) => f.sourceRef);
    for (const part of chunks(missing)) {
      const rows = await trx
        .selectFrom('foods')
        .select(['id', 'source_ref'])
        .where('source', '=', source)
        .where('source_ref', 'in', part)
        .execute();
      for (const row of rows) ids.set(row.source_ref as string, row.id);
    }
    counts.unchanged = missing.length;

    const idOf = (f: ImportedFood) => ids.get(f.sourceRef) as number;
    // The English and Hindi names are the source's: the old ones go, the aliases stay.
    for (const part of chunks(foods)) {
      await trx.deleteFrom('food_names').where('food_id', 'in', part.map(idOf)).where('is_alias', '=', false).execute();
    }
    const names = foods.flatMap((f) => nameRows(idOf(f), f.name, f.nameHi, f.aliases));
    for (const part of chunks(names)) {
      // A name that is now the food's English or Hindi name may be among its aliases already.
      await trx
        .insertInto('food_names')
        .values(part)
        .onConflict((oc) => oc.doNothing())
        .execute();
      const primary = part.filter((n) => !n.is_alias);
      if (primary.length > 0) {
        await sql`update food_names n set is_alias = false, lang = v.lang
          from (values ${sql.join(primary.map((n) => sql`(${n.food_id}::int, ${n.name}::text, ${n.lang}::text)`))}) as v(food_id, name, lang)
          where n.food_id = v.food_id and lower(n.name) = lower(v.name) and n.is_alias`.execute(trx);
      }
    }
    const portions = foods.flatMap((f) =>
      (f.portions ?? defaultPortions(f.group as FoodGroup)).map((p: Portion) => ({ food_id: idOf(f), unit: p.unit, grams: p.grams })),
    );
    for (const part of chunks(portions)) {
      await trx
        .insertInto('food_portions')
        .values(part)
        .onConflict((oc) => oc.columns(['food_id', 'unit']).doNothing())
        .execute();
    }
    return counts;
  });
}
