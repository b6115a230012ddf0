import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { type PageRequest, pagedList } from '../db/paging.js';
import type { InvoicesTable, OfflinePaymentsTable } from '../db/schema.js';
import type { Insertable, Updateable } from 'kysely';

/** The Kysely queries of payments; every function takes `db` or a transaction first. */

export const INVOICES_CHANNEL = 'invoices';

export function findBillingSettings(db: Db) {
  return db.selectFrom('billing_settings').selectAll().where('id', '=', 1).executeTakeFirst();
}

export function saveBillingSettings(
  db: Db,
  row: {
    legal_name: string;
    address: string;
    state_code: string;
    gstin: string | null;
    sac_code: string;
    tax_rate_bp: number;
    upi_vpa: string;
    payee_name: string;
    invoice_prefix: string;
  },
  now: Date,
) {
  return db
    .insertInto('billing_settings')
    .values({ id: 1, ...row, updated_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...row, updated_at: now }))
    .execute();
}

/**
 * Locks a financial year's counter and reads the last number handed out. The
 * lock holds until the caller's transaction ends, so issuers (on any
 * instance) take numbers one at a time, and a transaction that rolls back
 * gives its number back: numbers are consecutive and never repeated.
 */
export async function lockInvoiceCounter(trx: Db, financialYear: string): Promise<number> {
  await trx
    .insertInto('invoice_counters')
    .values({ financial_year: financialYear, last_number: 0 })
    .onConflict((oc) => oc.column('financial_year').doNothing())
    .execute();
  const row = await trx
    .selectFrom('invoice_counters')
    .select('last_number')
    .where('financial_year', '=', financialYear)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return row.last_number;
}

export function setInvoiceCounter(trx: Db, financialYear: string, lastNumber: number) {
  return trx.updateTable('invoice_counters').set({ last_number: lastNumber }).where('financial_year', '=', financialYear).execute();
}

/** What a repeated clientRequestId is compared on (and the id). */
const REPEAT_COLUMNS = [
  'id',
  'client_id',
  'plan_type',
  'plan_id',
  'lines',
  'discount_paise',
  'client_state_code',
  'issued_on',
  'due_on',
  'notes',
] as const;

/** Stores an invoice, or nothing (undefined) when its issuer used this clientRequestId before (insertOnce). */
export function insertInvoice(trx: Db, row: Insertable<InvoicesTable>) {
  return trx
    .insertInto('invoices')
    .values(row)
    .onConflict((oc) => oc.columns(['issued_by', 'client_request_id']).doNothing())
    .returning(REPEAT_COLUMNS)
    .executeTakeFirst();
}

/** The invoice its issuer made with this clientRequestId, with what a repeat is compared on. */
export function findInvoiceIdByKey(db: Db, issuedBy: number, clientRequestId: string) {
  return db
    .selectFrom('invoices')
    .select(REPEAT_COLUMNS)
    .where('issued_by', '=', issuedBy)
    .where('client_request_id', '=', clientRequestId)
    .executeTakeFirst();
}

export function findInvoice(db: Db, id: number, opts: { lock?: boolean } = {}) {
  const q = db.selectFrom('invoices').selectAll().where('id', '=', id);
  return (opts.lock ? q.forUpdate() : q).executeTakeFirst();
}

export type InvoiceRow = NonNullable<Awaited<ReturnType<typeof findInvoice>>>;

export function updateInvoice(trx: Db, id: number, set: Updateable<InvoicesTable>, now: Date) {
  return trx
    .updateTable('invoices')
    .set({ ...set, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** The newest claim of each invoice. */
export function latestClaims(db: Db, invoiceIds: number[]) {
  if (invoiceIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('payment_claims')
    .select(['id', 'invoice_id', 'utr', 'state', 'reason', 'created_at'])
    .distinctOn('invoice_id')
    .where('invoice_id', 'in', invoiceIds)
    .orderBy('invoice_id')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function pendingClaim(db: Db, invoiceId: number) {
  return db
    .selectFrom('payment_claims')
    .select(['id', 'utr'])
    .where('invoice_id', '=', invoiceId)
    .where('state', '=', 'pending')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** The claim states that hold a UTR: a rejected claim lets its UTR go (payment_claims_utr_open_once). */
export const UTR_HOLDING_STATES = ['pending', 'confirmed'] as const;

/** Stores a claim, or nothing (undefined) when its UTR backs an open or confirmed claim already (insertOnce). */
export function insertClaim(trx: Db, row: { invoice_id: number; utr: string; claimed_by: number; created_at: Date }) {
  return trx
    .insertInto('payment_claims')
    .values({ ...row, state: 'pending' })
    .onConflict((oc) => oc.column('utr').where('state', 'in', UTR_HOLDING_STATES).doNothing())
    .returning(['id', 'invoice_id', 'utr', 'state', 'reason', 'claimed_by'])
    .executeTakeFirst();
}

/** The open or confirmed claim this UTR backs, if any. */
export function findClaimHoldingUtr(db: Db, utr: string) {
  return db
    .selectFrom('payment_claims')
    .select(['id', 'invoice_id', 'utr', 'state', 'reason', 'claimed_by'])
    .where('utr', '=', utr)
    .where('state', 'in', UTR_HOLDING_STATES)
    .executeTakeFirst();
}

/** A claim of this invoice with this UTR that was rejected, if any (the newest). */
export function rejectedClaim(db: Db, invoiceId: number, utr: string) {
  return db
    .selectFrom('payment_claims')
    .select(['id', 'reason'])
    .where('invoice_id', '=', invoiceId)
    .where('utr', '=', utr)
    .where('state', '=', 'rejected')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export function decideClaim(trx: Db, claimId: number, state: 'confirmed' | 'rejected', by: number | null, reason: string | null, at: Date) {
  return trx.updateTable('payment_claims').set({ state, decided_by: by, decided_at: at, reason }).where('id', '=', claimId).execute();
}

type ListFilter = { clientId?: number; status: string };

/** Invoices newest first, filtered by client and status ("overdue": unpaid past its due date; "open": unpaid, not void). */
export function pageInvoices(db: Db, input: PageRequest & ListFilter, today: string) {
  let q = db.selectFrom('invoices');
  if (input.clientId !== undefined) q = q.where('client_id', '=', input.clientId);
  if (input.status === 'overdue') q = q.where('status', 'in', ['issued', 'claimed']).where('due_on', '<', today);
  else if (input.status === 'open') q = q.where('status', 'in', ['issued', 'claimed']);
  else if (input.status !== 'all') q = q.where('status', '=', input.status as InvoicesTable['status']);
  return pagedList(input, q, (page) => page.selectAll().orderBy('issued_on', 'desc').orderBy('id', 'desc'));
}

/** Invoices issued on these days (inclusive), oldest first, for the accountant's CSV. */
export function invoicesIssuedBetween(db: Db, from: string, to: string, limit: number) {
  return db
    .selectFrom('invoices')
    .selectAll()
    .where('issued_on', '>=', from)
    .where('issued_on', '<=', to)
    .orderBy('financial_year')
    .orderBy('seq')
    .limit(limit)
    .execute();
}

export async function summaryFigures(db: Db, today: string, monthStart: Date, nextMonthStart: Date) {
  const counts = await db
    .selectFrom('invoices')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  const money = await db
    .selectFrom('invoices')
    .select([
      sql<number>`coalesce(sum(total_paise) filter (where status = 'paid' and paid_at >= ${monthStart} and paid_at < ${nextMonthStart}), 0)`.as(
        'collected',
      ),
      sql<number>`coalesce(sum(total_paise) filter (where status in ('issued', 'claimed')), 0)`.as('outstanding'),
      sql<number>`count(*) filter (where status in ('issued', 'claimed') and due_on < ${today})`.as('overdue'),
    ])
    .executeTakeFirstOrThrow();
  return { counts, money };
}

/**
 * The seam for live updates: after each committed invoice change every
 * instance hears `invoices` with ids only (never amounts or names). Call it
 * inside the transaction that made the change, so it fires only on commit.
 */
export async function notifyInvoiceChanged(trx: Db, invoiceId: number, clientId: number) {
  await sql`select pg_notify(${INVOICES_CHANNEL}, ${JSON.stringify({ invoiceId, clientId })})`.execute(trx);
}

/** A gateway event seen for the first time: true (kept, to be settled in this transaction); already handled: false. */
export async function recordGatewayEvent(trx: Db, row: { event_id: string; provider: string; kind: string }) {
  const inserted = await trx
    .insertInto('gateway_events')
    .values(row)
    .onConflict((oc) => oc.column('event_id').doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** What came of a gateway event: the invoice and payment it named, and whether it paid the invoice. */
export function settleGatewayEvent(
  trx: Db,
  eventId: string,
  outcome: { invoice_id: number | null; payment_id: string | null; outcome: 'paid' | 'already_settled' | 'ignored'; detail: string | null },
) {
  return trx.updateTable('gateway_events').set(outcome).where('event_id', '=', eventId).execute();
}

/** The invoice a gateway payment already paid, if any (one payment pays one invoice: gateway_events_one_payment_pays_once). */
export function invoicePaidByPayment(db: Db, provider: string, paymentId: string) {
  return db
    .selectFrom('gateway_events as g')
    .innerJoin('invoices as i', 'i.id', 'g.invoice_id')
    .select(['i.id', 'i.number'])
    .where('g.provider', '=', provider)
    .where('g.payment_id', '=', paymentId)
    .where('g.outcome', '=', 'paid')
    .executeTakeFirst();
}

/** The invoice a gateway payment is for, locked: by its payment link, else by its number. */
export function findInvoiceForGateway(db: Db, ref: { linkId?: string; number?: string }) {
  let q = db.selectFrom('invoices').selectAll();
  if (ref.linkId) q = q.where('razorpay_link_id', '=', ref.linkId);
  else if (ref.number) q = q.where('number', '=', ref.number);
  else return Promise.resolve(undefined);
  return q.forUpdate().executeTakeFirst();
}

/** Keeps the gateway's payment link of an invoice (the first one only: a link, once made, is the invoice's). */
export async function setPaymentLink(db: Db, id: number, link: { linkId: string; url: string }) {
  const updated = await db
    .updateTable('invoices')
    .set({ razorpay_link_id: link.linkId, razorpay_link_url: link.url })
    .where('id', '=', id)
    .where('razorpay_link_id', 'is', null)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** Who hears of an invoice's changes: its client, and the dietitian who issued it. */
export function findInvoicePeople(db: Db, id: number) {
  return db
    .selectFrom('invoices as i')
    .innerJoin('users as c', 'c.id', 'i.client_id')
    .leftJoin('users as d', 'd.id', 'i.issued_by')
    .select([
      'i.id',
      'i.number',
      'i.status',
      'i.total_paise',
      'i.due_on',
      'c.id as client_id',
      'c.email as client_email',
      'c.first_name as client_first',
      'c.is_active as client_active',
      'd.id as dietitian_id',
      'd.email as dietitian_email',
      'd.first_name as dietitian_first',
    ])
    .where('i.id', '=', id)
    .executeTakeFirst();
}

/** The last day of the client's running (or future) subscriptions from `today`, if any: a paid plan starts after it. */
export async function lastRunningSubscriptionDay(db: Db, clientId: number, today: string): Promise<string | null> {
  const latest = await db
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.max('end_date').as('end'))
    .where('client_id', '=', clientId)
    .where('cancelled_at', 'is', null)
    .where('end_date', '>=', today)
    .executeTakeFirst();
  return (latest?.end as string | null | undefined) ?? null;
}

export function markInvoicePaid(db: Db, id: number, paid: Updateable<InvoicesTable>) {
  return db.updateTable('invoices').set(paid).where('id', '=', id).execute();
}

/** A payment recorded by hand, found by its dietitian's request key. */
export function findOfflinePaymentByKey(db: Db, recordedBy: number, clientRequestId: string) {
  return db
    .selectFrom('offline_payments')
    .selectAll()
    .where('recorded_by', '=', recordedBy)
    .where('client_request_id', '=', clientRequestId)
    .executeTakeFirst();
}
export type OfflinePaymentRow = NonNullable<Awaited<ReturnType<typeof findOfflinePaymentByKey>>>;

/** Undefined when the key was used already (the caller then reads the first). */
export function insertOfflinePayment(trx: Db, row: Insertable<OfflinePaymentsTable>) {
  return trx
    .insertInto('offline_payments')
    .values(row)
    .onConflict((oc) => oc.columns(['recorded_by', 'client_request_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
}
