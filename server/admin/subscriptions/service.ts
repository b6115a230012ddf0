import { type MailDeps, mailSubscriptionAssigned } from '../../notify/client-mail.js';
import { formatDay } from '../../format.js';
import type { SessionUser } from '../../auth/session.js';
import type { Db } from '../../db/index.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import { isSubscriptionExpired } from '../../subscription/period.js';
import { assignSubscription } from '../../subscription/service.js';
import { todayUtc } from '../../validation.js';
import { recordAudit } from '../../audit/record.js';
import { offsetOf, paged } from '../paging.js';
import type { AdminSubscription } from './schema.js';

const SUBSCRIPTION_MISSING = 'That subscription does not exist.';
const rupees = (n: number) => `₹${n.toLocaleString('en-IN')}`;

const columns = [
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

type Row = {
  id: number;
  client_id: number;
  first_name: string;
  last_name: string;
  plan_type: AdminSubscription['planType'];
  plan_id: string;
  plan_name: string;
  list_price: number;
  amount_received: number;
  start_date: string;
  end_date: string;
  cancelled_at: Date | null;
  created_at: Date;
};

function toAdminSubscription(r: Row, today: string): AdminSubscription {
  const isExpired = isSubscriptionExpired(r.end_date, r.cancelled_at, today);
  return {
    id: r.id,
    client: { id: r.client_id, fullName: `${r.first_name} ${r.last_name}`.trim() },
    planType: r.plan_type,
    planId: r.plan_id,
    planName: r.plan_name,
    listPrice: r.list_price,
    amountReceived: r.amount_received,
    startDate: r.start_date,
    endDate: r.end_date,
    cancelledAt: r.cancelled_at,
    isExpired,
    status: r.cancelled_at ? 'Cancelled' : isExpired ? 'Ended' : r.start_date > today ? 'Upcoming' : 'Active',
    createdAt: r.created_at,
  };
}

type ListInput = { clientId?: number; state: 'all' | 'active' | 'expired'; page: number; pageSize: number };

/** Newest first; "active" means not cancelled and not yet over (as the client's card counts it). */
export function listSubscriptions(db: Db, input: ListInput, today = todayUtc()) {
  const { offset, limit } = offsetOf(input);
  let rows = db.selectFrom('subscriptions as s').innerJoin('users as u', 'u.id', 's.client_id').select(columns);
  let count = db.selectFrom('subscriptions as s').select((eb) => eb.fn.countAll().as('n'));
  if (input.clientId !== undefined) {
    rows = rows.where('s.client_id', '=', input.clientId);
    count = count.where('s.client_id', '=', input.clientId);
  }
  if (input.state === 'active') {
    rows = rows.where('s.cancelled_at', 'is', null).where('s.end_date', '>=', today);
    count = count.where('s.cancelled_at', 'is', null).where('s.end_date', '>=', today);
  } else if (input.state === 'expired') {
    rows = rows.where((eb) => eb.or([eb('s.cancelled_at', 'is not', null), eb('s.end_date', '<', today)]));
    count = count.where((eb) => eb.or([eb('s.cancelled_at', 'is not', null), eb('s.end_date', '<', today)]));
  }
  const ordered =
    input.clientId !== undefined
      ? rows.orderBy('s.start_date', 'desc').orderBy('s.id', 'desc')
      : rows.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc');
  return paged(
    input,
    ordered
      .offset(offset)
      .limit(limit)
      .execute()
      .then((list) => list.map((r) => toAdminSubscription(r, today))),
    count.executeTakeFirst(),
  );
}

function lockSubscription(db: Db, id: number) {
  return db
    .selectFrom('subscriptions as s')
    .innerJoin('users as u', 'u.id', 's.client_id')
    .select(columns)
    .where('s.id', '=', id)
    .forUpdate('s')
    .executeTakeFirst();
}

type AssignInput = { clientId: number; planType: AdminSubscription['planType']; planId: string; startDate: string; amountReceived: number };

/** The subscription domain's assignSubscription does the catalogue lookup and the end date. */
export async function assign(deps: MailDeps, actor: SessionUser, input: AssignInput) {
  const saved = await deps.db.transaction().execute(async (trx) => {
    const created = await assignSubscription(trx, input as Parameters<typeof assignSubscription>[1]);
    await recordAudit(trx, actor, {
      action: 'subscription.assigned',
      entity: 'subscription',
      entityId: created.id,
      summary: `Put client #${input.clientId} on ${created.planId_fk.planName}, ${created.startDate} to ${created.endDate}, paid ${rupees(created.amountReceived)}`,
      details: { ...input },
    });
    return {
      id: created.id,
      message: `${created.planId_fk.planName} runs from ${formatDay(created.startDate)} to ${formatDay(created.endDate)}.`,
    };
  });
  await mailSubscriptionAssigned(deps, saved.id);
  return saved;
}

/** Ends a subscription now (it shows as expired on the client's card at once). */
export async function expire(db: Kysely<Database>, actor: SessionUser, id: number, today = todayUtc()) {
  return db.transaction().execute(async (trx) => {
    const s = await lockSubscription(trx, id);
    if (!s) throw notFound(SUBSCRIPTION_MISSING);
    if (isSubscriptionExpired(s.end_date, s.cancelled_at, today)) throw badRequest('This subscription has already ended.');
    await trx.updateTable('subscriptions').set({ cancelled_at: new Date() }).where('id', '=', id).execute();
    await recordAudit(trx, actor, {
      action: 'subscription.expired',
      entity: 'subscription',
      entityId: id,
      summary: `Ended ${s.plan_name} of ${s.first_name} ${s.last_name}`.trim(),
      details: { clientId: s.client_id, endDate: s.end_date },
    });
    return { message: `${s.plan_name} of ${s.first_name} has ended.` };
  });
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Another period of the same plan: from the day after this one ends, or from today if it is over. */
export async function renew(
  deps: MailDeps,
  actor: SessionUser,
  input: { id: number; startDate?: string; amountReceived: number },
  today = todayUtc(),
) {
  const saved = await deps.db.transaction().execute(async (trx) => {
    const s = await lockSubscription(trx, input.id);
    if (!s) throw notFound(SUBSCRIPTION_MISSING);
    const startDate = input.startDate ?? (s.cancelled_at || s.end_date < today ? today : nextDay(s.end_date));
    const created = await assignSubscription(trx, {
      clientId: s.client_id,
      planType: s.plan_type,
      planId: s.plan_id,
      startDate,
      amountReceived: input.amountReceived,
    } as Parameters<typeof assignSubscription>[1]);
    await recordAudit(trx, actor, {
      action: 'subscription.renewed',
      entity: 'subscription',
      entityId: created.id,
      summary: `Renewed ${s.plan_name} of ${s.first_name} ${s.last_name}: ${created.startDate} to ${created.endDate}, paid ${rupees(created.amountReceived)}`,
      details: { renewedFrom: s.id, clientId: s.client_id, startDate: created.startDate, amountReceived: created.amountReceived },
    });
    return {
      id: created.id,
      message: `Renewed: ${created.planId_fk.planName} runs from ${formatDay(created.startDate)} to ${formatDay(created.endDate)}.`,
    };
  });
  await mailSubscriptionAssigned(deps, saved.id);
  return saved;
}
