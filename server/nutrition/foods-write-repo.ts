import { sql } from 'kysely';
import type { Db } from '../db/index.js';

/**
 * The statements of foods-write.ts (saving a food with its names and portions, and an importer's
 * upsert), `db` or `trx` first. The rules (sanity checks, which names a food has, what a re-import
 * keeps) are foods-write.ts's.
 */

export type NameRow = { food_id: number; name: string; lang: 'en' | 'hi'; is_alias: boolean };
export type PortionRow = { food_id: number; unit: string; grams: number };
export type FoodSource = 'ifct2017' | 'csv' | 'clinic';

export type NewFoodRow = {
  kind: 'food' | 'recipe';
  name: string;
  nameHi: string | null;
  group: string;
  source: FoodSource;
  sourceRef: string | null;
  per100g: Record<string, number>;
  cookedGrams: number | null;
  servingGrams: number | null;
  createdBy: number | null;
};

export async function insertFood(trx: Db, food: NewFoodRow, now: Date): Promise<number> {
  const { id } = await trx
    .insertInto('foods')
    .values({
      kind: food.kind,
      name: food.name,
      name_hi: food.nameHi,
      food_group: food.group,
      source: food.source,
      source_ref: food.sourceRef,
      per_100g: JSON.stringify(food.per100g),
      cooked_grams: food.cookedGrams,
      serving_grams: food.servingGrams,
      created_by: food.createdBy,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export function foodNamesOf(trx: Db, id: number) {
  return trx.selectFrom('foods').select(['name', 'name_hi']).where('id', '=', id).executeTakeFirstOrThrow();
}

export async function updateFoodRow(
  trx: Db,
  id: number,
  fields: { name: string; nameHi: string | null; group?: string; per100g?: Record<string, number> },
  now: Date,
): Promise<void> {
  await trx
    .updateTable('foods')
    .set({
      name: fields.name,
      name_hi: fields.nameHi,
      ...(fields.group ? { food_group: fields.group } : {}),
      ...(fields.per100g ? { per_100g: JSON.stringify(fields.per100g) } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export async function aliasesOf(trx: Db, id: number): Promise<string[]> {
  const rows = await trx
    .selectFrom('food_names')
    .select('name')
    .where('food_id', '=', id)
    .where('is_alias', '=', true)
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}

/** Replaces a food's names with these. */
export async function replaceNames(trx: Db, id: number, rows: readonly NameRow[]): Promise<void> {
  await trx.deleteFrom('food_names').where('food_id', '=', id).execute();
  if (rows.length > 0) await trx.insertInto('food_names').values(rows).execute();
}

/** Adds names; a name the food has already (case aside) is left as it is. */
export async function addNames(trx: Db, rows: readonly NameRow[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('food_names')
    .values(rows)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Adds portions; a measure the food has already keeps its weight. */
export async function addPortions(trx: Db, rows: readonly PortionRow[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('food_portions')
    .values(rows)
    .onConflict((oc) => oc.columns(['food_id', 'unit']).doNothing())
    .execute();
}

export type SourcedFoodRow = { name: string; nameHi: string | null; group: string; sourceRef: string; per100g: Record<string, number> };

/**
 * Inserts the foods a source has not given before and updates those whose name, group or values
 * changed, keyed by (source, source_ref); an unchanged one is not touched and not returned.
 */
export async function upsertSourcedFoods(
  trx: Db,
  source: FoodSource,
  foods: readonly SourcedFoodRow[],
  now: Date,
): Promise<{ id: number; source_ref: string | null; inserted: boolean }[]> {
  if (foods.length === 0) return [];
  return (
    trx
      .insertInto('foods')
      .values(
        foods.map((f) => ({
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
      .execute()
  );
}

export function idsBySourceRef(trx: Db, source: FoodSource, refs: readonly string[]) {
  if (refs.length === 0) return Promise.resolve([]);
  return trx.selectFrom('foods').select(['id', 'source_ref']).where('source', '=', source).where('source_ref', 'in', refs).execute();
}

/** Removes these foods' English and Hindi names (their aliases stay). */
export async function deletePrimaryNames(trx: Db, foodIds: readonly number[]): Promise<void> {
  if (foodIds.length === 0) return;
  await trx.deleteFrom('food_names').where('food_id', 'in', foodIds).where('is_alias', '=', false).execute();
}

/** Makes these names a food's English or Hindi name where the food had them as aliases. */
export async function promoteToPrimary(trx: Db, rows: readonly NameRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`update food_names n set is_alias = false, lang = v.lang
    from (values ${sql.join(rows.map((n) => sql`(${n.food_id}::int, ${n.name}::text, ${n.lang}::text)`))}) as v(food_id, name, lang)
    where n.food_id = v.food_id and lower(n.name) = lower(v.name) and n.is_alias`.execute(trx);
}
