import { type Kysely, sql } from 'kysely';

/**
 * The care record (decision 117), apart from the meal journal:
 * the intake questionnaire (one row per client, answers kept as the client
 * types them), goals (every setting kept; the newest is the current one),
 * body measurements and progress photos over time, and the documents a
 * client or a dietitian uploads. Every create carries the sender's own key
 * (unique per client), so a repeat finds the first row. Progress photos claim
 * their upload with used_for 'progress'.
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table attachments drop constraint attachments_used_for_known`.execute(db);
  await sql`alter table attachments add constraint attachments_used_for_known check (used_for in ('message', 'meal', 'document', 'progress'))`.execute(
    db,
  );

  await db.schema
    .createTable('intakes')
    .addColumn('client_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('answers', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('completed_at', 'timestamptz')
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('goals')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('client_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_weight_kg', 'real')
    .addColumn('target_date', 'date')
    .addColumn('waist_cm', 'real')
    .addColumn('water_glasses', 'integer')
    .addColumn('steps', 'integer')
    .addColumn('habit', 'text')
    .addColumn('set_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('client_request_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('goals_client_request_key', ['client_id', 'client_request_id'])
    .execute();
  await db.schema.createIndex('goals_client_idx').on('goals').columns(['client_id', 'id']).execute();

  await db.schema
    .createTable('body_measurements')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('client_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('date', 'date', (c) => c.notNull())
    .addColumn('waist_cm', 'real')
    .addColumn('hip_cm', 'real')
    .addColumn('chest_cm', 'real')
    .addColumn('arm_cm', 'real')
    .addColumn('thigh_cm', 'real')
    .addColumn('recorded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('client_request_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('body_measurements_client_request_key', ['client_id', 'client_request_id'])
    .execute();
  await db.schema.createIndex('body_measurements_client_date_idx').on('body_measurements').columns(['client_id', 'date']).execute();

  await db.schema
    .createTable('progress_photos')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('client_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('date', 'date', (c) => c.notNull())
    .addColumn('pose', 'text', (c) => c.notNull().check(sql`pose in ('front', 'side')`))
    .addColumn('attachment_id', 'uuid', (c) => c.notNull().unique().references('attachments.id').onDelete('cascade'))
    .addColumn('uploaded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('client_request_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('progress_photos_client_request_key', ['client_id', 'client_request_id'])
    .execute();
  await db.schema.createIndex('progress_photos_client_date_idx').on('progress_photos').columns(['client_id', 'date']).execute();

  await db.schema
    .createTable('documents')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('client_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('lab-report', 'prescription', 'other')`))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('date', 'date', (c) => c.notNull())
    .addColumn('attachment_id', 'uuid', (c) => c.notNull().unique().references('attachments.id').onDelete('cascade'))
    .addColumn('uploaded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('client_request_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('documents_client_request_key', ['client_id', 'client_request_id'])
    .execute();
  await db.schema.createIndex('documents_client_date_idx').on('documents').columns(['client_id', 'date']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['documents', 'progress_photos', 'body_measurements', 'goals', 'intakes']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await sql`alter table attachments drop constraint attachments_used_for_known`.execute(db);
  await sql`alter table attachments add constraint attachments_used_for_known check (used_for in ('message', 'meal', 'document'))`.execute(
    db,
  );
}
