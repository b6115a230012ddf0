import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/index.js';

/**
 * The food library's reads and the console's small writes (archive, portions, uses), `db` or `trx`
 * first. Saving a food with its names and portions is foods-write.ts's, the one path every source takes.
 */

/** A food as lists and search read it, before it is shaped into a FoodSummary (search.ts). */
export type SummaryRow = {
  id: number;
  kind: 'food' | 'recipe';
  name: string;
  name_hi: string | null;
  food_group: string;
  source: 'ifct2017' | 'csv' | 'clinic';
  per_100g: Record<string, number>;
  serving_grams: number | null;
  portions: { unit: string; grams: number }[];
};

/** A summary's columns, its portions gathered in the same row (one round trip per list). */
const summaryColumns = sql`f.id, f.kind, f.name, f.name_hi, f.food_group, f.source, f.per_100g, f.serving_grams,
  coalesce((select json_agg(json_build_object('unit', p.unit, 'grams', p.grams) order by p.grams, p.unit)
    from food_portions p where p.food_id = f.id), '[]'::json) as portions`;

/** `%`, `_` and `\` stand for themselves in a LIKE pattern. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Below this many characters a text is too short to be like anything: names and their words that
 * start with it are found (two letters still make the trigram index's " xy"), one letter only the names.
 */
export const TRIGRAM_MIN_LENGTH = 3;

/**
 * The search, as one statement (the benchmark runs this same text bare). Candidates come from the
 * two indexes on `lower(food_names.name)`: the trigram index finds names containing the text, names
 * similar to it as a whole (`%`, typos: "panner") and names with a word like it (`<%`); the
 * text_pattern_ops index finds names that start with it. Each food ranks by its best name:
 * 0 a name equal to the text, 1 a name or a word of it starting with the text, 2 a food this person
 * has used, 3 the rest; then by the person's uses, similarity, a shorter name, the id.
 * `text` is trimmed and non-empty; lower() runs in the database, as the index's does.
 */
export function searchFoodsQuery(text: string, userId: number | null, limit: number): RawBuilder<SummaryRow> {
  const name = sql`lower(n.name)`;
  const q = sql`lower(${text})`;
  const prefix = sql`lower(${`${likeEscaped(text)}%`})`;
  const wordPrefix = sql`lower(${`% ${likeEscaped(text)}%`})`;
  const length = [...text].length;
  const found =
    length === 1
      ? sql`${name} like ${prefix}`
      : length < TRIGRAM_MIN_LENGTH
        ? sql`${name} like ${prefix} or ${name} like ${wordPrefix}`
        : sql`${name} like ${prefix} or ${name} like lower(${`%${likeEscaped(text)}%`}) or ${name} % ${q} or ${q} <% ${name}`;
  return sql<SummaryRow>`with matched as (
    select n.food_id,
      min(case when ${name} = ${q} then 0 when ${name} like ${prefix} or ${name} like ${wordPrefix} then 1 else 3 end) as tier,
      max(greatest(similarity(${name}, ${q}), word_similarity(${q}, ${name}))) as score
    from food_names n
    where ${found}
    group by n.food_id
  )
  select ${summaryColumns}
  from matched m
  join foods f on f.id = m.food_id
  left join food_uses u on u.user_id = ${userId} and u.food_id = m.food_id
  where f.archived_at is null
  order by case when m.tier < 2 then m.tier when u.food_id is not null then 2 else 3 end,
    u.uses desc nulls last, u.last_used_at desc nulls last, m.score desc, length(f.name), f.id
  limit ${limit}`;
}

export async function searchFoods(db: Db, text: string, userId: number | null, limit: number): Promise<SummaryRow[]> {
  return (await searchFoodsQuery(text, userId, limit).execute(db)).rows;
}

/** The foods a person used most lately (the picker's list before a word is typed). */
export async function recentFoods(db: Db, userId: number, limit: number): Promise<SummaryRow[]> {
  const { rows } = await sql<SummaryRow>`select ${summaryColumns}
    from food_uses u join foods f on f.id = u.food_id
    where u.user_id = ${userId} and f.archived_at is null
    order by u.last_used_at desc, u.uses desc, f.id
    limit ${limit}`.execute(db);
  return rows;
}

/** Foods by id, archived ones too (a plan made before keeps its foods); in no particular order. */
export async function foodsByIds(db: Db, ids: readonly number[]): Promise<SummaryRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<SummaryRow>`select ${summaryColumns} from foods f where f.id in (${sql.join(ids)})`.execute(db);
  return rows;
}

/** The console's list without a query: the latest edited first. */
export async function latestFoods(db: Db, includeArchived: boolean, limit: number): Promise<(SummaryRow & { archived: boolean })[]> {
  const { rows } = await sql<SummaryRow & { archived: boolean }>`select ${summaryColumns}, f.archived_at is not null as archived
    from foods f
    ${includeArchived ? sql`` : sql`where f.archived_at is null`}
    order by f.updated_at desc, f.id desc
    limit ${limit}`.execute(db);
  return rows;
}

export function findFood(db: Db, id: number) {
  return db
    .selectFrom('foods')
    .select([
      'id',
      'kind',
      'name',
      'name_hi',
      'food_group',
      'source',
      'source_ref',
      'per_100g',
      'cooked_grams',
      'serving_grams',
      'archived_at',
      'updated_at',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}
export type FoodRow = NonNullable<Awaited<ReturnType<typeof findFood>>>;

/** The food's row, locked until the transaction ends (two edits of one food never interleave). */
export function lockFood(trx: Db, id: number) {
  return trx.selectFrom('foods').select(['id', 'kind', 'name', 'archived_at']).where('id', '=', id).forUpdate().executeTakeFirst();
}

export function foodNames(db: Db, id: number) {
  return db
    .selectFrom('food_names')
    .select(['name', 'lang', 'is_alias'])
    .where('food_id', '=', id)
    .orderBy('is_alias')
    .orderBy('name')
    .execute();
}

export function foodPortions(db: Db, id: number) {
  return db.selectFrom('food_portions').select(['unit', 'grams']).where('food_id', '=', id).orderBy('grams').orderBy('unit').execute();
}

export function recipeIngredients(db: Db, recipeId: number) {
  return db
    .selectFrom('recipe_ingredients as r')
    .innerJoin('foods as f', 'f.id', 'r.food_id')
    .select(['r.food_id', 'f.name', 'f.name_hi', 'r.grams'])
    .where('r.recipe_id', '=', recipeId)
    .orderBy('r.position')
    .execute();
}

export async function setArchived(trx: Db, id: number, archived: boolean, now: Date): Promise<void> {
  await trx
    .updateTable('foods')
    .set({ archived_at: archived ? now : null, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Replaces a food's household portions with these. */
export async function replacePortions(trx: Db, id: number, portions: readonly { unit: string; grams: number }[], now: Date): Promise<void> {
  await trx.deleteFrom('food_portions').where('food_id', '=', id).execute();
  if (portions.length > 0) {
    await trx
      .insertInto('food_portions')
      .values(portions.map((p) => ({ food_id: id, unit: p.unit, grams: p.grams })))
      .execute();
  }
  await trx.updateTable('foods').set({ updated_at: now }).where('id', '=', id).execute();
}

/** Counts one use of each food by this person at `now` (the database's clock without one); unknown ids are skipped, repeats count once. */
export async function noteFoodUses(db: Db, userId: number, foodIds: readonly number[], now?: Date): Promise<void> {
  const ids = [...new Set(foodIds)];
  if (ids.length === 0) return;
  await sql`insert into food_uses (user_id, food_id, uses, last_used_at)
    select ${userId}, f.id, 1, coalesce(${now ?? null}::timestamptz, now()) from foods f where f.id in (${sql.join(ids)})
    on conflict (user_id, food_id) do update set uses = food_uses.uses + 1, last_used_at = greatest(food_uses.last_used_at, excluded.last_used_at)`.execute(
    db,
  );
}
