import type { Db } from '../db/index.js';
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
