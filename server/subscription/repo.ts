import type { Db } from '../db/index.js';
import { type PageRequest, pagedList } from '../db/paging.js';
import type { SubscriptionsTable } from '../db/schema.js';
import { SUBSCRIPTION_LIST_LIMIT } from './schema.js';

const columns = [
  'id',
  'plan_type',
  'plan_id',
  'plan_name',
  'list_price',
  'amount_received',
  'start_date',
  'end_date',
  'cancelled_at',
] as const;

/** Newest first. With `activeOn`, only those not cancelled and still running on that day. */
export function listSubscriptions(db: Db, clientId: number, opts: { activeOn?: string } = {}) {
  let q = db.selectFrom('subscriptions').select(columns).where('client_id', '=', clientId);
  if (opts.activeOn) q = q.where('end_date', '>=', opts.activeOn).where('cancelled_at', 'is', null);
  return q.orderBy('start_date', 'desc').orderBy('id', 'desc').limit(SUBSCRIPTION_LIST_LIMIT).execute();
}

export function insertSubscription(
  db: Db,
  row: Pick<
    SubscriptionsTable,
    'client_id' | 'plan_type' | 'plan_id' | 'plan_name' | 'list_price' | 'amount_received' | 'start_date' | 'end_date'
  >,
) {
  return db.insertInto('subscriptions').values(row).returning(columns).executeTakeFirstOrThrow();
}

/**
 * The paid invoices that started these subscriptions (a plan paid by invoice
 * has one; one assigned by hand has none), with their first line: the plan's.
 */
export function paidInvoicesOf(db: Db, subscriptionIds: number[]) {
  if (subscriptionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('invoices')
    .select(['subscription_id', 'number', 'lines', 'discount_paise', 'cgst_paise', 'sgst_paise', 'igst_paise', 'total_paise'])
    .where('subscription_id', 'in', subscriptionIds)
    .where('status', '=', 'paid')
    .execute();
}

/** The open pause of each of these subscriptions, if any. */
export function openPauses(db: Db, subscriptionIds: number[]) {
  if (subscriptionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('subscription_pauses')
    .select(['subscription_id', 'paused_from'])
    .where('subscription_id', 'in', subscriptionIds)
    .where('resumed_on', 'is', null)
    .execute();
}

const withClientColumns = [
  's.id',
  's.client_id',
  'u.first_name',
  'u.last_name',
  's.plan_type',
  's.plan_id',
  's.plan_name',
  's.list_price',
  's.amount_received',
  's.start_date',
  's.end_date',
  's.cancelled_at',
  's.created_at',
] as const;

const withClient = (db: Db) => db.selectFrom('subscriptions as s').innerJoin('users as u', 'u.id', 's.client_id');

/**
 * A page of subscriptions with their client's name: newest first, or one
 * client's by start date. "active" means not cancelled and not yet over on
 * `today` (as the client's card counts it); "expired" the rest.
 */
export function pageSubscriptionsWithClients(
  db: Db,
  input: PageRequest & { clientId?: number; state: 'all' | 'active' | 'expired' },
  today: string,
) {
  let filtered = withClient(db);
  if (input.clientId !== undefined) filtered = filtered.where('s.client_id', '=', input.clientId);
  if (input.state === 'active') filtered = filtered.where('s.cancelled_at', 'is', null).where('s.end_date', '>=', today);
  else if (input.state === 'expired') {
    filtered = filtered.where((eb) => eb.or([eb('s.cancelled_at', 'is not', null), eb('s.end_date', '<', today)]));
  }
  return pagedList(input, filtered, (q) =>
    input.clientId !== undefined
      ? q.select(withClientColumns).orderBy('s.start_date', 'desc').orderBy('s.id', 'desc')
      : q.select(withClientColumns).orderBy('s.created_at', 'desc').orderBy('s.id', 'desc'),
  );
}

/** One subscription with its client's name, locked for a change. */
export function lockSubscriptionWithClient(db: Db, id: number) {
  return withClient(db).select(withClientColumns).where('s.id', '=', id).forUpdate('s').executeTakeFirst();
}

export function cancelSubscription(db: Db, id: number, now = new Date()) {
  return db.updateTable('subscriptions').set({ cancelled_at: now }).where('id', '=', id).execute();
}

/** What the "you are on a plan" mail tells, with whether its client is still active. */
export function findSubscriptionForMail(db: Db, id: number) {
  return withClient(db)
    .select(['u.email', 'u.first_name', 'u.is_active', 's.plan_name', 's.start_date', 's.end_date', 's.amount_received'])
    .where('s.id', '=', id)
    .executeTakeFirst();
}
