import { type Kysely, sql } from 'kysely';

/**
 * The food library and what adds up from it.
 * - `foods`: a food or a recipe (a dish made of foods), values per 100 g of edible portion in
 *   `per_100g` (jsonb keyed by the nutrient names of server/nutrition/nutrients.ts, in display units:
 *   kcal, g, mg, µg; a missing key is "not known", never 0). `source` says where it came from and
 *   `source_ref` its id there (an IFCT code, a CSV's own id), which makes every import idempotent.
 * - `food_names`: every name a food is found by (English, Hindi in Devanagari, aliases such as
 *   "toor" and "arhar"), searched through a trigram index (typo-tolerant) and by prefix.
 * - `food_portions`: grams of one household measure (katori, roti...) of that food.
 * - `recipe_ingredients`: a recipe's foods by raw weight; the recipe's row keeps its cooked and
 *   serving weights and its per-100 g values, recomputed whenever it is saved.
 * - `food_uses`: how often and how lately each person used each food (search ranks these first).
 * - `nutrition_targets`: a client's daily targets, set by a dietitian, and whether the client sees numbers.
 * - `meal_entry_items`: the foods of a journal meal with their quantity, measure and grams.
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  await db.schema
    .createTable('foods')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('food').check(sql`kind in ('food', 'recipe')`))
    .addColumn('name', 'text', (c) => c.notNull().check(sql`length(name) between 1 and 200`))
    .addColumn('name_hi', 'text', (c) => c.check(sql`length(name_hi) between 1 and 200`))
    .addColumn('food_group', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('ifct2017', 'csv', 'clinic')`))
    .addColumn('source_ref', 'text')
    .addColumn('per_100g', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('cooked_grams', 'double precision', (c) => c.check(sql`cooked_grams > 0`))
    .addColumn('serving_grams', 'double precision', (c) => c.check(sql`serving_grams > 0`))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('archived_at', 'timestamptz')
    .addCheckConstraint('foods_recipe_weights', sql`(kind = 'recipe') = (cooked_grams is not null)`)
    .addCheckConstraint('foods_per_100g_object', sql`jsonb_typeof(per_100g) = 'object'`)
    .execute();
  await sql`create unique index foods_source_ref_once on foods (source, source_ref) where source_ref is not null`.execute(db);

  await db.schema
    .createTable('food_names')
    .addColumn('food_id', 'integer', (c) => c.notNull().references('foods.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().check(sql`length(name) between 1 and 200`))
    .addColumn('lang', 'text', (c) => c.notNull().check(sql`lang in ('en', 'hi')`))
    .addColumn('is_alias', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`create unique index food_names_once on food_names (food_id, lower(name))`.execute(db);
  await sql`create index food_names_trgm_idx on food_names using gin (lower(name) gin_trgm_ops)`.execute(db);
  await sql`create index food_names_prefix_idx on food_names (lower(name) text_pattern_ops)`.execute(db);

  await db.schema
    .createTable('food_portions')
    .addColumn('food_id', 'integer', (c) => c.notNull().references('foods.id').onDelete('cascade'))
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('grams', 'double precision', (c) => c.notNull().check(sql`grams > 0 and grams <= 5000`))
    .addPrimaryKeyConstraint('food_portions_pkey', ['food_id', 'unit'])
    .execute();

  await db.schema
    .createTable('recipe_ingredients')
    .addColumn('recipe_id', 'integer', (c) => c.notNull().references('foods.id').onDelete('cascade'))
    .addColumn('position', 'smallint', (c) => c.notNull())
    .addColumn('food_id', 'integer', (c) => c.notNull().references('foods.id').onDelete('restrict'))
    .addColumn('grams', 'double precision', (c) => c.notNull().check(sql`grams > 0 and grams <= 50000`))
    .addPrimaryKeyConstraint('recipe_ingredients_pkey', ['recipe_id', 'position'])
    .addCheckConstraint('recipe_ingredients_not_itself', sql`food_id <> recipe_id`)
    .execute();
  await db.schema.createIndex('recipe_ingredients_food_idx').on('recipe_ingredients').column('food_id').execute();

  await db.schema
    .createTable('food_uses')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('food_id', 'integer', (c) => c.notNull().references('foods.id').onDelete('cascade'))
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('food_uses_pkey', ['user_id', 'food_id'])
    .execute();

  await db.schema
    .createTable('nutrition_targets')
    .addColumn('client_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('targets', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('basis', 'jsonb')
    .addColumn('show_numbers', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('set_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('nutrition_targets_object', sql`jsonb_typeof(targets) = 'object'`)
    .execute();

  await db.schema
    .createTable('meal_entry_items')
    .addColumn('entry_id', 'integer', (c) => c.notNull().references('meal_entries.id').onDelete('cascade'))
    .addColumn('position', 'smallint', (c) => c.notNull())
    .addColumn('food_id', 'integer', (c) => c.notNull().references('foods.id').onDelete('restrict'))
    .addColumn('quantity', 'double precision', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('grams', 'double precision', (c) => c.notNull().check(sql`grams > 0 and grams <= 5000`))
    .addColumn('added_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('meal_entry_items_pkey', ['entry_id', 'position'])
    .execute();
  await db.schema.createIndex('meal_entry_items_food_idx').on('meal_entry_items').column('food_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'meal_entry_items',
    'nutrition_targets',
    'food_uses',
    'recipe_ingredients',
    'food_portions',
    'food_names',
    'foods',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
