import { type Kysely, sql } from 'kysely';

/**
 * When a call's place was taken: the console says how long a client (or a
 * visitor) has been waiting in the call for the dietitian.
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('call_seats')
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('call_seats').dropColumn('claimed_at').execute();
}
