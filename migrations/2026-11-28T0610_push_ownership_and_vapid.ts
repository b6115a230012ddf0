import { type Kysely, sql } from 'kysely';

/**
 * Push subscriptions belong to the person who registered them, and the
 * server's VAPID key pair lives in the database.
 *
 * - push_subscriptions: unique per (person, endpoint) instead of per
 *   endpoint, so another account naming someone's endpoint makes a row of its
 *   own and never takes theirs; `registered_at` is when the browser last
 *   registered it, which decides the oldest when a sign-in or a person has too
 *   many (the newest are kept).
 * - push_vapid_keys: at most one row (id 1), the pair generated at the first
 *   start when the operator sets none, its private half sealed with a key
 *   derived from APP_SECRET, so every instance signs with the same pair.
 *
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table push_subscriptions drop constraint push_subscriptions_endpoint_key`.execute(db);
  await db.schema
    .alterTable('push_subscriptions')
    .addUniqueConstraint('push_subscriptions_user_endpoint_key', ['user_id', 'endpoint'])
    .execute();
  // The same endpoint under several people: the lookup of a browser handed to another account.
  await db.schema.createIndex('push_subscriptions_endpoint_idx').on('push_subscriptions').column('endpoint').execute();
  await db.schema
    .alterTable('push_subscriptions')
    .addColumn('registered_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`update push_subscriptions set registered_at = created_at`.execute(db);

  await db.schema
    .createTable('push_vapid_keys')
    .addColumn('id', 'smallint', (c) => c.primaryKey().defaultTo(1).check(sql`id = 1`))
    .addColumn('public_key', 'text', (c) => c.notNull().check(sql`char_length(public_key) = 87`))
    .addColumn('private_key_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('push_vapid_keys').ifExists().execute();
  // Only one row per endpoint may stay: the newest registration's.
  await sql`
    delete from push_subscriptions a using push_subscriptions b
     where a.endpoint = b.endpoint and (a.registered_at, a.id) < (b.registered_at, b.id)`.execute(db);
  await db.schema.alterTable('push_subscriptions').dropColumn('registered_at').execute();
  await db.schema.dropIndex('push_subscriptions_endpoint_idx').ifExists().execute();
  await db.schema.alterTable('push_subscriptions').dropConstraint('push_subscriptions_user_endpoint_key').execute();
  await db.schema.alterTable('push_subscriptions').addUniqueConstraint('push_subscriptions_endpoint_key', ['endpoint']).execute();
}
