import { type Kysely, sql } from 'kysely';

/**
 * Payments. The clinic's billing details (one row), invoices with
 * their numbers per financial year, the UPI claims clients make against them
 * (a UTR once, ever), and the gateway events already handled. Money is
 * integer paise. Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('billing_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('legal_name', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('state_code', 'text', (c) => c.notNull())
    .addColumn('gstin', 'text')
    .addColumn('sac_code', 'text', (c) => c.notNull())
    .addColumn('tax_rate_bp', 'integer', (c) => c.notNull().check(sql`tax_rate_bp between 0 and 2800`))
    .addColumn('upi_vpa', 'text', (c) => c.notNull())
    .addColumn('payee_name', 'text', (c) => c.notNull())
    .addColumn('invoice_prefix', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // One row per financial year ('26-27'): the last number handed out. Taken with a row lock inside the
  // invoice's own transaction, so a rolled-back invoice gives its number back and two never share one.
  await db.schema
    .createTable('invoice_counters')
    .addColumn('financial_year', 'text', (c) => c.primaryKey())
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('invoices')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('number', 'text', (c) => c.notNull().unique().check(sql`char_length(number) <= 16`))
    .addColumn('financial_year', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('client_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
    .addColumn('issued_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('client_request_id', 'uuid')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('issued', 'claimed', 'paid', 'void')`))
    .addColumn('issued_on', 'date', (c) => c.notNull())
    .addColumn('due_on', 'date', (c) => c.notNull())
    .addColumn('seller', 'jsonb', (c) => c.notNull())
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addColumn('client_state_code', 'text')
    .addColumn('plan_type', 'text')
    .addColumn('plan_id', 'text')
    .addColumn('lines', 'jsonb', (c) => c.notNull())
    .addColumn('subtotal_paise', 'bigint', (c) => c.notNull())
    .addColumn('discount_paise', 'bigint', (c) => c.notNull())
    .addColumn('taxable_paise', 'bigint', (c) => c.notNull())
    .addColumn('tax_rate_bp', 'integer', (c) => c.notNull())
    .addColumn('cgst_paise', 'bigint', (c) => c.notNull())
    .addColumn('sgst_paise', 'bigint', (c) => c.notNull())
    .addColumn('igst_paise', 'bigint', (c) => c.notNull())
    .addColumn('round_off_paise', 'integer', (c) => c.notNull())
    .addColumn('total_paise', 'bigint', (c) => c.notNull().check(sql`total_paise > 0`))
    .addColumn('notes', 'text')
    .addColumn('paid_at', 'timestamptz')
    .addColumn('paid_via', 'text', (c) => c.check(sql`paid_via in ('upi', 'razorpay')`))
    .addColumn('payment_reference', 'text')
    .addColumn('subscription_id', 'integer', (c) => c.references('subscriptions.id').onDelete('set null'))
    .addColumn('razorpay_link_id', 'text')
    .addColumn('razorpay_link_url', 'text')
    .addColumn('voided_at', 'timestamptz')
    .addColumn('void_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('invoices_number_in_year', ['financial_year', 'seq'])
    .addUniqueConstraint('invoices_client_request_once', ['issued_by', 'client_request_id'])
    .addCheckConstraint('invoices_paid_has_time', sql`(status = 'paid') = (paid_at is not null)`)
    .execute();
  await db.schema.createIndex('invoices_client_issued_idx').on('invoices').columns(['client_id', 'issued_on', 'id']).execute();
  await db.schema.createIndex('invoices_status_issued_idx').on('invoices').columns(['status', 'issued_on', 'id']).execute();
  await db.schema.createIndex('invoices_paid_at_idx').on('invoices').column('paid_at').execute();
  await sql`create unique index invoices_razorpay_link_idx on invoices (razorpay_link_id) where razorpay_link_id is not null`.execute(db);

  await db.schema
    .createTable('payment_claims')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoices.id').onDelete('cascade'))
    // A UTR names one bank transfer: it can back one claim, ever (a rejected one included).
    .addColumn('utr', 'text', (c) => c.notNull().unique())
    .addColumn('claimed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pending', 'confirmed', 'rejected')`))
    .addColumn('reason', 'text')
    .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('payment_claims_invoice_idx').on('payment_claims').columns(['invoice_id', 'created_at']).execute();

  await db.schema
    .createTable('gateway_events')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('invoice_id', 'integer', (c) => c.references('invoices.id').onDelete('set null'))
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('gateway_events').ifExists().execute();
  await db.schema.dropTable('payment_claims').ifExists().execute();
  await db.schema.dropTable('invoices').ifExists().execute();
  await db.schema.dropTable('invoice_counters').ifExists().execute();
  await db.schema.dropTable('billing_settings').ifExists().execute();
}
