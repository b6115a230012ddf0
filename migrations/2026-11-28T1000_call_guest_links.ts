import { type Kysely, sql } from 'kysely';

/**
 * A visitor's free consultation is joined without an account, through a
 * signed guest link (server/calls/guest-link.ts). The signature covers the
 * appointment and a version kept here: raising the version (revoking) makes
 * every link made before it refuse at once. A guest holds the client's place
 * in the call, so that place no longer always has a user.
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('call_guest_links')
    .addColumn('appointment_id', 'integer', (c) => c.primaryKey().references('appointments.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1).check(sql`version >= 1`))
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .alterTable('call_seats')
    .alterColumn('user_id', (c) => c.dropNotNull())
    .execute();
  await db.schema
    .alterTable('call_seats')
    .addCheckConstraint('call_seats_guest_is_client', sql`user_id is not null or side = 'client'`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('call_seats').where('user_id', 'is', null).execute();
  await db.schema.alterTable('call_seats').dropConstraint('call_seats_guest_is_client').execute();
  await db.schema
    .alterTable('call_seats')
    .alterColumn('user_id', (c) => c.setNotNull())
    .execute();
  await db.schema.dropTable('call_guest_links').execute();
}
