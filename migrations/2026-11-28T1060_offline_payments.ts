import { type Kysely, sql } from 'kysely';

/**
 * Payments a dietitian records by hand: cash at the clinic or a bank transfer
 * that no UPI claim or gateway reported. One per invoice (it pays the invoice
 * whole); the dietitian's request key makes a repeated submission answer the
 * first. Invoices may now be paid via 'cash' or 'bank_transfer', and the
 * client's Active Subscription finds the invoice that paid a plan through
 * subscription_id. Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('offline_payments')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('invoice_id', 'integer', (c) => c.notNull().unique().references('invoices.id').onDelete('restrict'))
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('cash', 'bank_transfer')`))
    .addColumn('amount_paise', 'bigint', (c) => c.notNull().check(sql`amount_paise > 0`))
    .addColumn('reference', 'text')
    .addColumn('received_on', 'date', (c) => c.notNull())
    .addColumn('recorded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('client_request_id', 'uuid', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('offline_payments_request_once', ['recorded_by', 'client_request_id'])
    .execute();
  await sql`alter table invoices drop constraint invoices_paid_via_check`.execute(db);
  await sql`alter table invoices add constraint invoices_paid_via_check check (paid_via in ('upi', 'razorpay', 'cash', 'bank_transfer'))`.execute(
    db,
  );
  await sql`create index invoices_subscription_idx on invoices (subscription_id) where subscription_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists invoices_subscription_idx`.execute(db);
  await db.schema.dropTable('offline_payments').ifExists().execute();
  await sql`alter table invoices drop constraint invoices_paid_via_check`.execute(db);
  await sql`alter table invoices add constraint invoices_paid_via_check check (paid_via in ('upi', 'razorpay'))`.execute(db);
}
