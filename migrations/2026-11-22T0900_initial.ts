import { type Kysely, sql } from 'kysely';

/**
 * Initial schema: every entity of the spec (section 3) plus what auth needs.
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('role', 'smallint', (c) => c.notNull().check(sql`role in (1, 2)`))
    .addColumn('password_hash', 'text')
    .addColumn('height_m', 'double precision', (c) => c.check(sql`height_m > 0 and height_m < 3`))
    .addColumn('weight_kg', 'double precision', (c) => c.check(sql`weight_kg > 0 and weight_kg < 1000`))
    .addColumn('phone', 'text')
    .addColumn('condition_notes', 'text')
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('users_email_not_blank', sql`length(trim(email)) > 0`)
    .execute();
  await sql`create unique index users_email_lower_key on users (lower(email))`.execute(db);
  await db.schema.createIndex('users_role_created_idx').on('users').columns(['role', 'created_at']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('family_id', 'uuid', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('refresh_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('refresh_expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('rotated_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sessions_family_idx').on('sessions').column('family_id').execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('password_resets_user_idx').on('password_resets').column('user_id').execute();

  // Rate limiting shared by every instance: one row per counted attempt.
  await db.schema
    .createTable('login_attempts')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('login_attempts_bucket_at_idx').on('login_attempts').columns(['bucket', 'at']).execute();

  // RSA-OAEP keys for client-side password encryption, shared by every instance.
  await db.schema
    .createTable('auth_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('public_jwk', 'jsonb', (c) => c.notNull())
    .addColumn('private_key_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('retired_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued').check(sql`status in ('queued', 'sent', 'failed', 'logged')`))
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('outbox_created_idx').on('outbox').column('created_at').execute();
  await db.schema.createIndex('outbox_to_idx').on('outbox').columns(['to_address', 'created_at']).execute();

  await db.schema
    .createTable('countries')
    .addColumn('id', 'integer', (c) => c.primaryKey()) // ISO 3166-1 numeric code
    .addColumn('alpha2', 'char(2)', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('countries_name_idx').on('countries').column('name').execute();

  await db.schema
    .createTable('support_requests')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open').check(sql`status in ('open', 'answered')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('support_requests_status_created_idx').on('support_requests').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('consultations')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('gender', 'smallint', (c) => c.notNull().check(sql`gender in (1, 2, 3)`))
    .addColumn('age', 'integer', (c) => c.notNull().check(sql`age between 1 and 999`))
    .addColumn('height', 'text', (c) => c.notNull())
    .addColumn('weight', 'double precision', (c) => c.notNull().check(sql`weight > 0 and weight <= 999`))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('contact', 'text', (c) => c.notNull().check(sql`contact ~ '^[0-9]{10,13}$'`))
    .addColumn('country_id', 'integer', (c) => c.notNull().references('countries.id'))
    .addColumn('is_medical_condition', 'boolean', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('new').check(sql`status in ('new', 'contacted', 'converted', 'closed')`))
    .addColumn('notes', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('consultations_status_created_idx').on('consultations').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('feed_posts')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('description', 'text', (c) => c.notNull().check(sql`length(trim(description)) > 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('feed_posts_created_idx').on('feed_posts').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('feed_likes')
    .addColumn('post_id', 'integer', (c) => c.notNull().references('feed_posts.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('feed_likes_pkey', ['post_id', 'user_id'])
    .execute();
  await db.schema.createIndex('feed_likes_user_idx').on('feed_likes').column('user_id').execute();

  // Append-only log of feed changes: lets a reconnecting subscriber catch up by id.
  await db.schema
    .createTable('feed_events')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('post.created', 'post.updated', 'post.deleted', 'like.changed')`))
    .addColumn('post_id', 'integer', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('feed_events_created_idx').on('feed_events').column('created_at').execute();

  await db.schema
    .createTable('ratings')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    // Stored in half stars (1..10) so 0.5 steps are exact.
    .addColumn('half_stars', 'smallint', (c) => c.notNull().check(sql`half_stars between 1 and 10`))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_published', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('ratings_published_idx').on('ratings').columns(['is_published', 'created_at']).execute();

  await db.schema
    .createTable('diet_plans')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('client_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('from_date', 'date', (c) => c.notNull())
    .addColumn('to_date', 'date', (c) => c.notNull())
    .addColumn('pdf_data', 'bytea', (c) => c.notNull())
    .addColumn('pdf_bytes', 'integer', (c) => c.notNull().check(sql`pdf_bytes > 0 and pdf_bytes <= 10485760`))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('diet_plans_range', sql`to_date >= from_date`)
    .execute();
  await db.schema.createIndex('diet_plans_client_idx').on('diet_plans').columns(['client_id', 'from_date', 'id']).execute();

  await db.schema
    .createTable('weights')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('client_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('weight_kg', 'double precision', (c) => c.notNull().check(sql`weight_kg > 0 and weight_kg < 1000`))
    .addColumn('date', 'date', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('weights_client_date_key', ['client_id', 'date'])
    .execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('client_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('plan_type', 'text', (c) => c.notNull().check(sql`plan_type in ('WL', 'WG', 'DP', 'LP')`))
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('plan_name', 'text', (c) => c.notNull())
    .addColumn('list_price', 'integer', (c) => c.notNull().check(sql`list_price >= 0`))
    .addColumn('amount_received', 'integer', (c) => c.notNull().check(sql`amount_received >= 0`))
    .addColumn('start_date', 'date', (c) => c.notNull())
    .addColumn('end_date', 'date', (c) => c.notNull())
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('subscriptions_range', sql`end_date >= start_date`)
    .execute();
  await db.schema.createIndex('subscriptions_client_end_idx').on('subscriptions').columns(['client_id', 'end_date']).execute();

  await db.schema
    .createTable('visits')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('visitor_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('visits_day_visitor_idx').on('visits').columns(['day', 'visitor_hash']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'visits',
    'subscriptions',
    'weights',
    'diet_plans',
    'ratings',
    'feed_events',
    'feed_likes',
    'feed_posts',
    'consultations',
    'support_requests',
    'countries',
    'outbox',
    'auth_keys',
    'login_attempts',
    'password_resets',
    'sessions',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
