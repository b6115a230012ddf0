import { type Kysely, sql } from 'kysely';

/**
 * The meal journal and water (decision 118). A client logs what
 * they ate (`meal_entries`, one row per client-made `client_entry_id`, so a
 * phone replaying its queue never stores a meal twice); `eaten_on` is the
 * calendar day of `eaten_at` in the client's time zone (India time), which
 * the day view and the adherence count read along one index. Photos are
 * attachments claimed for the meal. Dietitians mark an entry and both sides
 * write comments under it. Water is a count of glasses per client and day.
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('meal_entries')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('client_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('client_entry_id', 'uuid', (c) => c.notNull())
    .addColumn('meal', 'text', (c) =>
      c.notNull().check(sql`meal in ('early-morning', 'breakfast', 'mid-morning', 'lunch', 'evening-snack', 'dinner', 'other')`),
    )
    .addColumn('eaten_at', 'timestamptz', (c) => c.notNull())
    .addColumn('eaten_on', 'date', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('hunger_before', 'smallint', (c) => c.check(sql`hunger_before between 1 and 10`))
    .addColumn('fullness_after', 'smallint', (c) => c.check(sql`fullness_after between 1 and 10`))
    .addColumn('note', 'text')
    .addColumn('mark', 'text', (c) => c.check(sql`mark in ('looks-good', 'lets-talk')`))
    .addColumn('marked_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('marked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('meal_entries_client_entry_once', ['client_id', 'client_entry_id'])
    .execute();
  await db.schema.createIndex('meal_entries_client_day_idx').on('meal_entries').columns(['client_id', 'eaten_on', 'eaten_at']).execute();

  await db.schema
    .createTable('meal_entry_attachments')
    .addColumn('entry_id', 'integer', (c) => c.notNull().references('meal_entries.id').onDelete('cascade'))
    .addColumn('attachment_id', 'uuid', (c) => c.notNull().unique().references('attachments.id').onDelete('cascade'))
    .addColumn('position', 'smallint', (c) => c.notNull())
    .addPrimaryKeyConstraint('meal_entry_attachments_pkey', ['entry_id', 'position'])
    .execute();

  await db.schema
    .createTable('meal_comments')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('entry_id', 'integer', (c) => c.notNull().references('meal_entries.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('author_role', 'text', (c) => c.notNull().check(sql`author_role in ('client', 'dietitian')`))
    .addColumn('client_comment_id', 'uuid')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('meal_comments_author_once', ['author_id', 'client_comment_id'])
    .execute();
  await db.schema.createIndex('meal_comments_entry_idx').on('meal_comments').columns(['entry_id', 'id']).execute();

  await db.schema
    .createTable('water_intake')
    .addColumn('client_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('glasses', 'smallint', (c) => c.notNull().check(sql`glasses between 0 and 30`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('water_intake_pkey', ['client_id', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('water_intake').ifExists().execute();
  await db.schema.dropTable('meal_comments').ifExists().execute();
  await db.schema.dropTable('meal_entry_attachments').ifExists().execute();
  await db.schema.dropTable('meal_entries').ifExists().execute();
}
