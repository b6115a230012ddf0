import { type Kysely, sql } from 'kysely';

/** The outbox's unsettled mails (queued, failed), counted by /metrics and listed by the Overview, without a scan of every sent mail. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('outbox_unsettled_idx')
    .on('outbox')
    .columns(['status', 'created_at'])
    .where(sql.ref('status'), 'in', sql`('queued', 'failed')`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('outbox_unsettled_idx').execute();
}
