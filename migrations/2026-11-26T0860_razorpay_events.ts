import { type Kysely, sql } from 'kysely';

/**
 * Razorpay webhooks: each event handled is kept with the payment
 * it named and what came of it, so a replay is recognised by its event id
 * and one gateway payment can pay one invoice only, whatever events name it.
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('gateway_events')
    .addColumn('payment_id', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull().defaultTo('ignored').check(sql`outcome in ('paid', 'already_settled', 'ignored')`))
    .addColumn('detail', 'text')
    .execute();
  await sql`create unique index gateway_events_one_payment_pays_once on gateway_events (provider, payment_id) where outcome = 'paid'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists gateway_events_one_payment_pays_once`.execute(db);
  await db.schema.alterTable('gateway_events').dropColumn('detail').dropColumn('outcome').dropColumn('payment_id').execute();
}
