import { type Kysely, sql } from 'kysely';

/**
 * Messages between a client and the care team (decision 113). One
 * conversation per client; its `last_seq` is the counter each message's `seq`
 * is taken from, with the conversation row locked in the inserting
 * transaction, so seqs are gapless and in commit order on every instance.
 * Read state is one row per participant (the client, each dietitian who
 * opened it). `search` is the message text as the 'simple' text-search
 * configuration splits it (no stemming: Hindi and English words match as
 * written). Office hours and saved replies belong to the console.
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('conversations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('client_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('primary_dietitian_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('last_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_message_at', 'timestamptz')
    .addColumn('last_sender_role', 'text')
    .addColumn('auto_replied_until', 'timestamptz')
    .addColumn('client_notified_at', 'timestamptz')
    .addColumn('client_notified_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('team_notified_at', 'timestamptz')
    .addColumn('team_notified_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The console's inbox, newest first.
  await sql`create index conversations_latest_idx on conversations (last_message_at desc nulls last, id desc)`.execute(db);

  await db.schema
    .createTable('messages')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('conversation_id', 'integer', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('sender_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('sender_role', 'text', (c) => c.notNull())
    .addColumn('client_message_id', 'uuid')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('search', sql`tsvector`, (c) => c.generatedAlwaysAs(sql`to_tsvector('simple', text)`).stored())
    .addUniqueConstraint('messages_conversation_seq', ['conversation_id', 'seq'])
    .addUniqueConstraint('messages_sender_client_message_once', ['sender_id', 'client_message_id'])
    .execute();
  await sql`create index messages_search_idx on messages using gin (search)`.execute(db);
  // Unsent notifications are found among messages sent in the last day.
  await db.schema.createIndex('messages_sent_at_idx').on('messages').column('sent_at').execute();

  await db.schema
    .createTable('conversation_reads')
    .addColumn('conversation_id', 'integer', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('last_read_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('read_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('conversation_reads_pk', ['conversation_id', 'user_id'])
    .execute();
  await db.schema.createIndex('conversation_reads_user_idx').on('conversation_reads').column('user_id').execute();

  await db.schema
    .createTable('saved_replies')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // One row (id 1): office hours in India time (weekdays as '1,2,3,4,5', times as 'HH:MM'); no row, or null days, means always open.
  await db.schema
    .createTable('message_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('office_days', 'text')
    .addColumn('office_opens', 'text')
    .addColumn('office_closes', 'text')
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('message_settings').ifExists().execute();
  await db.schema.dropTable('saved_replies').ifExists().execute();
  await db.schema.dropTable('conversation_reads').ifExists().execute();
  await db.schema.dropTable('messages').ifExists().execute();
  await db.schema.dropTable('conversations').ifExists().execute();
}
