import { type Kysely, sql } from 'kysely';

/**
 * Uploaded files (photos and PDFs) for messages, meals and documents
 * (decision 112). A row is made before its bytes are stored (ready = false)
 * and made ready once they are, so nothing is ever stored without a row that
 * the cleanup can find. Unclaimed rows (no client_id yet) older than a day are
 * deleted with their files. Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('attachments')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('uploader_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('received_bytes', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull().defaultTo(0))
    // A random key per file that signs its short-lived links (decision 112): whoever may read the row may sign them.
    .addColumn('link_key', 'text', (c) => c.notNull())
    .addColumn('has_thumbnail', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('ready', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('client_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('used_for', 'text')
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('attachments_used_for_known', sql`used_for in ('message', 'meal', 'document')`)
    .addCheckConstraint(
      'attachments_claimed_whole',
      sql`(client_id is null) = (claimed_at is null) and (client_id is null) = (used_for is null)`,
    )
    .execute();
  // The uploader's bytes of the last day (the upload limit) and the cleanup's unclaimed rows.
  await db.schema.createIndex('attachments_uploader_created_idx').on('attachments').columns(['uploader_id', 'created_at']).execute();
  await sql`create index attachments_unclaimed_idx on attachments (created_at) where claimed_at is null`.execute(db);
  // A client's files, newest first (the client's documents list).
  await db.schema.createIndex('attachments_client_idx').on('attachments').columns(['client_id', 'claimed_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('attachments').ifExists().execute();
}
