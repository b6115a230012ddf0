import { type Kysely, sql } from 'kysely';

/**
 * Calls (decision 120). Signals (offers, answers, ICE candidates)
 * are never stored: they pass through NOTIFY. What is kept:
 * - call_seats: who holds each of a call's two places (the client's and the
 *   care team's) right now, so a third person cannot join on any instance;
 *   a row lives while its holder's signalling subscription does (refreshed by
 *   seen_at, released when it ends);
 * - session_notes: the dietitian's private notes of one appointment, on the
 *   client's record (never shown to the client);
 * - call_settings: each dietitian's fallback meeting link (https only).
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('call_seats')
    .addColumn('appointment_id', 'integer', (c) => c.notNull().references('appointments.id').onDelete('cascade'))
    .addColumn('side', 'text', (c) => c.notNull().check(sql`side in ('client', 'team')`))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('peer_id', 'uuid', (c) => c.notNull())
    .addColumn('claim_id', 'uuid', (c) => c.notNull())
    .addColumn('seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('call_seats_pkey', ['appointment_id', 'side'])
    .execute();

  await db.schema
    .createTable('session_notes')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('appointment_id', 'integer', (c) => c.notNull().unique().references('appointments.id').onDelete('cascade'))
    .addColumn('client_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('body', 'text', (c) => c.notNull().check(sql`char_length(body) between 1 and 10000`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('session_notes_client_idx').on('session_notes').columns(['client_id', 'created_at desc']).execute();

  await db.schema
    .createTable('call_settings')
    .addColumn('dietitian_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('fallback_url', 'text', (c) => c.check(sql`fallback_url ~ '^https://' and char_length(fallback_url) <= 500`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('call_settings').execute();
  await db.schema.dropTable('session_notes').execute();
  await db.schema.dropTable('call_seats').execute();
}
