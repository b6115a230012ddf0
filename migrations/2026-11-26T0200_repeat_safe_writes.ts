import { type Kysely, sql } from 'kysely';

/**
 * Writes a phone or a crash may repeat. A check-in carries the client's own
 * key (clientRequestId), unique per client, so a retried send finds the first
 * one instead of making a second. An outbox mail is leased by whoever is
 * delivering it (claim_token until claimed_until): a mail whose lease ran out
 * (its process died between writing and sending) is taken over by the sweep
 * or the console's retry, and the old holder may no longer mark it. Bookings
 * are looked up by e-mail and by contact to spot a visitor booking twice.
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('check_ins').addColumn('client_request_id', 'uuid').execute();
  await db.schema
    .alterTable('check_ins')
    .addUniqueConstraint('check_ins_client_request_once', ['client_id', 'client_request_id'])
    .execute();
  // The console's "awaiting a reply" figure reads only unanswered check-ins.
  await sql`create index check_ins_awaiting_reply_idx on check_ins (client_id, created_at) where reply is null`.execute(db);

  await db.schema.alterTable('outbox').addColumn('claim_token', 'text').addColumn('claimed_until', 'timestamptz').execute();
  // Mail queued before leases existed belongs to no live sender: the first sweep takes it (null counts as run out).
  await sql`create index outbox_queued_lease_idx on outbox (claimed_until, id) where status = 'queued'`.execute(db);

  await sql`create index consultations_email_created_idx on consultations (lower(email), created_at)`.execute(db);
  await db.schema.createIndex('consultations_contact_created_idx').on('consultations').columns(['contact', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('consultations_contact_created_idx').ifExists().execute();
  await db.schema.dropIndex('consultations_email_created_idx').ifExists().execute();
  await db.schema.dropIndex('outbox_queued_lease_idx').ifExists().execute();
  await db.schema.alterTable('outbox').dropColumn('claimed_until').dropColumn('claim_token').execute();
  await db.schema.dropIndex('check_ins_awaiting_reply_idx').ifExists().execute();
  await db.schema.alterTable('check_ins').dropConstraint('check_ins_client_request_once').execute();
  await db.schema.alterTable('check_ins').dropColumn('client_request_id').execute();
}
