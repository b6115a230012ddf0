import { type Kysely, sql } from 'kysely';

/**
 * The dietitian console: an audit trail of every admin change,
 * versioned diet plans (uploaded or composed), replies to support requests,
 * bookings linked to the client they became, and the indexes behind the
 * console's searches and lists. Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // Kept as text too, so the trail still says who after an account is gone.
    .addColumn('actor_email', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'integer')
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('audit_log_created_idx').on('audit_log').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('audit_log_entity_idx').on('audit_log').columns(['entity', 'entity_id', 'created_at']).execute();
  await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor_id', 'created_at']).execute();

  // Prefix search over clients. text_pattern_ops lets `like 'abc%'` use the
  // index whatever the database collation is (C.UTF-8 and en_US do not).
  await sql`create index users_role_email_prefix_idx on users (role, lower(email) text_pattern_ops)`.execute(db);
  await sql`create index users_role_name_prefix_idx on users (role, lower(first_name || ' ' || last_name) text_pattern_ops)`.execute(db);
  await sql`create index users_role_last_name_prefix_idx on users (role, lower(last_name) text_pattern_ops)`.execute(db);
  await sql`create index users_role_phone_prefix_idx on users (role, phone text_pattern_ops)`.execute(db);

  // Diet plans: the row in diet_plans is the current version (what the client
  // downloads); each edit archives the previous one in diet_plan_versions.
  await db.schema
    .alterTable('diet_plans')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1).check(sql`version >= 1`))
    .execute();
  await db.schema
    .alterTable('diet_plans')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('upload').check(sql`source in ('upload', 'composed')`))
    .execute();
  await db.schema.alterTable('diet_plans').addColumn('content', 'jsonb').execute();
  await db.schema
    .alterTable('diet_plans')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`alter table diet_plans add constraint diet_plans_content_matches_source check ((source = 'composed') = (content is not null))`.execute(
    db,
  );
  await db.schema.createIndex('diet_plans_created_idx').on('diet_plans').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('diet_plan_versions')
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('diet_plans.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull().check(sql`version >= 1`))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('from_date', 'date', (c) => c.notNull())
    .addColumn('to_date', 'date', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('upload', 'composed')`))
    .addColumn('content', 'jsonb')
    .addColumn('pdf_data', 'bytea', (c) => c.notNull())
    .addColumn('pdf_bytes', 'integer', (c) => c.notNull().check(sql`pdf_bytes > 0 and pdf_bytes <= 10485760`))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('superseded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('diet_plan_versions_pkey', ['plan_id', 'version'])
    .addCheckConstraint('diet_plan_versions_range', sql`to_date >= from_date`)
    .execute();

  // Support inbox: answering records the reply (mailed to the requester).
  await db.schema.alterTable('support_requests').addColumn('reply', 'text').execute();
  await db.schema.alterTable('support_requests').addColumn('answered_at', 'timestamptz').execute();
  await db.schema
    .alterTable('support_requests')
    .addColumn('answered_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('support_requests_created_idx').on('support_requests').columns(['created_at', 'id']).execute();

  // Bookings: the client a booking was converted into.
  await db.schema
    .alterTable('consultations')
    .addColumn('client_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('consultations')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('consultations_created_idx').on('consultations').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('consultations_client_idx').on('consultations').column('client_id').execute();

  await db.schema.createIndex('ratings_created_idx').on('ratings').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('subscriptions_created_idx').on('subscriptions').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('subscriptions_end_idx').on('subscriptions').column('end_date').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('subscriptions_end_idx').ifExists().execute();
  await db.schema.dropIndex('subscriptions_created_idx').ifExists().execute();
  await db.schema.dropIndex('ratings_created_idx').ifExists().execute();
  await db.schema.dropIndex('consultations_created_idx').ifExists().execute();
  await db.schema.dropIndex('consultations_client_idx').ifExists().execute();
  await db.schema.alterTable('consultations').dropColumn('updated_at').execute();
  await db.schema.alterTable('consultations').dropColumn('client_id').execute();
  await db.schema.dropIndex('support_requests_created_idx').ifExists().execute();
  await db.schema.alterTable('support_requests').dropColumn('answered_by').execute();
  await db.schema.alterTable('support_requests').dropColumn('answered_at').execute();
  await db.schema.alterTable('support_requests').dropColumn('reply').execute();
  await db.schema.dropTable('diet_plan_versions').ifExists().execute();
  await db.schema.dropIndex('diet_plans_created_idx').ifExists().execute();
  await sql`alter table diet_plans drop constraint if exists diet_plans_content_matches_source`.execute(db);
  for (const column of ['updated_at', 'content', 'source', 'version']) {
    await db.schema.alterTable('diet_plans').dropColumn(column).execute();
  }
  for (const index of [
    'users_role_phone_prefix_idx',
    'users_role_last_name_prefix_idx',
    'users_role_name_prefix_idx',
    'users_role_email_prefix_idx',
  ]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  await db.schema.dropTable('audit_log').ifExists().execute();
}
