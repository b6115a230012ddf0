import { type Kysely, sql } from 'kysely';

/**
 * Sessions have an absolute lifetime: refreshing continues a
 * sign-in but never past a fixed time after it began. Each row carries when
 * its family (the chain of refreshes) began. Frozen in time: never import
 * application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('family_started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`
    update sessions s set family_started_at = f.started_at
    from (select family_id, min(created_at) as started_at from sessions group by family_id) f
    where f.family_id = s.family_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('family_started_at').execute();
}
