import type { Kysely } from 'kysely';

/**
 * The files a message carries (at most 5, in the order the sender attached
 * them). An attachment is claimed by one message only (its row in
 * `attachments` records the client whose record holds it), so
 * `attachment_id` is unique here too.
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('message_attachments')
    .addColumn('message_id', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('attachment_id', 'uuid', (c) => c.notNull().unique().references('attachments.id').onDelete('cascade'))
    .addColumn('position', 'smallint', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_attachments_pkey', ['message_id', 'position'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('message_attachments').ifExists().execute();
}
