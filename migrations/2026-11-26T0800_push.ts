import { type Kysely, sql } from 'kysely';

/**
 * Web push and notification preferences (decision 115).
 *
 * - push_subscriptions: one per browser that said yes, tied to the sign-in
 *   (session family) that registered it, so signing that device out removes
 *   it; the endpoint is unique (a browser re-subscribing replaces its row).
 * - notification_preferences: one row per person and category they changed;
 *   no row means both channels on.
 * - push_deliveries: one row per notification and device, unique on
 *   (notification_key, subscription_id), written in the transaction that
 *   decided the notification, so a repeated decision or a job run twice
 *   sends nothing twice. The payload names the event only.
 *
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('family_id', 'uuid', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull().unique().check(sql`char_length(endpoint) <= 1024`))
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('push_subscriptions_user_idx').on('push_subscriptions').columns(['user_id', 'family_id']).execute();

  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('category', 'text', (c) => c.notNull().check(sql`char_length(category) <= 32`))
    .addColumn('email', 'boolean', (c) => c.notNull())
    .addColumn('push', 'boolean', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('notification_preferences_pkey', ['user_id', 'category'])
    .execute();

  await db.schema
    .createTable('push_deliveries')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('notification_key', 'text', (c) => c.notNull().check(sql`char_length(notification_key) <= 200`))
    // Set null when the subscription goes (404/410, sign-out): the row stays for the console's failure count.
    .addColumn('subscription_id', 'integer', (c) => c.references('push_subscriptions.id').onDelete('set null'))
    .addColumn('service_host', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('ttl_seconds', 'integer', (c) => c.notNull())
    .addColumn('urgency', 'text', (c) => c.notNull().check(sql`urgency in ('very-low', 'low', 'normal', 'high')`))
    .addColumn('state', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`state in ('pending', 'sending', 'sent', 'gone', 'failed', 'dropped')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('settled_at', 'timestamptz')
    .addUniqueConstraint('push_deliveries_once', ['notification_key', 'subscription_id'])
    .execute();
  // The sweep's and the health card's lookups: deliveries still owed, and the newest failures.
  await db.schema
    .createIndex('push_deliveries_owed_idx')
    .on('push_deliveries')
    .column('next_attempt_at')
    .where(sql<boolean>`state in ('pending', 'sending')`)
    .execute();
  await db.schema
    .createIndex('push_deliveries_failed_idx')
    .on('push_deliveries')
    .column('settled_at')
    .where(sql<boolean>`state = 'failed'`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('push_deliveries').ifExists().execute();
  await db.schema.dropTable('notification_preferences').ifExists().execute();
  await db.schema.dropTable('push_subscriptions').ifExists().execute();
}
