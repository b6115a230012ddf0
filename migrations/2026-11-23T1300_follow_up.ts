import { type Kysely, sql } from 'kysely';

/**
 * The follow-up loop: client check-ins with the dietitian's reply,
 * pauses of a subscription, the reminders already sent (one row per client,
 * kind and due date: the unique key is what makes a reminder go out once
 * however many instances run), and the small job table the embedded database
 * uses instead of pg-boss. Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('check_ins')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('client_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('date', 'date', (c) => c.notNull())
    .addColumn('weight_kg', 'double precision', (c) => c.notNull().check(sql`weight_kg > 0`))
    .addColumn('adherence', 'smallint', (c) => c.notNull().check(sql`adherence between 1 and 5`))
    .addColumn('notes', 'text', (c) => c.check(sql`char_length(notes) <= 1000`))
    .addColumn('reply', 'text', (c) => c.check(sql`char_length(reply) <= 2000`))
    .addColumn('replied_at', 'timestamptz')
    .addColumn('replied_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('check_ins_client_idx').on('check_ins').columns(['client_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('subscription_pauses')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('subscription_id', 'integer', (c) => c.notNull().references('subscriptions.id').onDelete('cascade'))
    .addColumn('paused_from', 'date', (c) => c.notNull())
    .addColumn('resumed_on', 'date')
    .addColumn('reason', 'text', (c) => c.check(sql`char_length(reason) <= 500`))
    .addColumn('paused_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('resumed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('subscription_pauses_range', sql`resumed_on is null or resumed_on >= paused_from`)
    .execute();
  await db.schema
    .createIndex('subscription_pauses_subscription_idx')
    .on('subscription_pauses')
    .columns(['subscription_id', 'paused_from'])
    .execute();
  // At most one open pause per subscription.
  await sql`create unique index subscription_pauses_open_idx on subscription_pauses (subscription_id) where resumed_on is null`.execute(db);

  await db.schema
    .createTable('follow_up_reminders')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('client_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('check_in_due', 'check_in_overdue', 'renewal')`))
    .addColumn('due_date', 'date', (c) => c.notNull())
    .addColumn('outbox_id', 'integer', (c) => c.references('outbox.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('follow_up_reminders_once', ['client_id', 'kind', 'due_date'])
    .execute();

  await db.schema
    .createTable('job_queue')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('singleton_key', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('created').check(sql`state in ('created', 'active', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_after', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('job_queue_ready_idx').on('job_queue').columns(['state', 'run_after', 'id']).execute();
  // A singleton job is queued (or running) once at a time.
  await sql`create unique index job_queue_singleton_idx on job_queue (name, singleton_key) where singleton_key is not null and state in ('created', 'active')`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_queue').execute();
  await db.schema.dropTable('follow_up_reminders').execute();
  await db.schema.dropTable('subscription_pauses').execute();
  await db.schema.dropTable('check_ins').execute();
}
