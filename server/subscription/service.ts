import { recordAudit } from '../audit/record.js';
import { clientToActFor, requireClient } from '../auth/guards.js';
import type { SessionUser } from '../auth/session.js';
import { findPlan } from '../catalogue/plans.js';
import type { Db } from '../db/index.js';
import { mapPage } from '../db/paging.js';
import { badRequest, issueMessage, notFound, zodFieldErrors } from '../errors.js';
import { formatDay } from '../format.js';
import { type MailDeps, mailSubscriptionAssigned } from '../notifications/client-mail.js';
import { addDays } from '../time.js';
import { todayUtc } from '../validation.js';
import { isSubscriptionExpired, planEndDate } from './period.js';
import * as repo from './repo.js';
import {
  type AdminSubscription,
  type AssignSubscriptionInput,
  assignSubscriptionInput,
  type ListSubscriptionsInput,
  type Subscription,
  type SubscriptionPeriod,
} from './schema.js';

type SubscriptionRow = Awaited<ReturnType<typeof repo.insertSubscription>>;

type PaidInvoice = Subscription['invoice'];

function periodOf(row: Pick<SubscriptionRow, 'start_date' | 'end_date' | 'cancelled_at'>, today: string): SubscriptionPeriod {
  if (isSubscriptionExpired(row.end_date, row.cancelled_at, today)) return 'ended';
  return row.start_date > today ? 'upcoming' : 'active';
}

/** Running plans first, then upcoming ones (soonest first), then ended ones (newest first). */
const PERIOD_ORDER: Record<SubscriptionPeriod, number> = { active: 0, upcoming: 1, ended: 2 };
function byPeriod(a: Subscription, b: Subscription): number {
  const byKind = PERIOD_ORDER[a.status] - PERIOD_ORDER[b.status];
  if (byKind !== 0) return byKind;
  if (a.status === 'upcoming') return a.startDate < b.startDate ? -1 : a.startDate > b.startDate ? 1 : a.id - b.id;
  return a.startDate > b.startDate ? -1 : a.startDate < b.startDate ? 1 : b.id - a.id;
}

function toSubscription(row: SubscriptionRow, today: string, pausedSince: string | null = null, invoice: PaidInvoice = null): Subscription {
  return {
    id: row.id,
    planId_fk: { planType: row.plan_type, planMRP: row.list_price, planName: row.plan_name, planId: row.plan_id },
    amountReceived: row.amount_received,
    startDate: row.start_date,
    endDate: row.end_date,
    isExpired: isSubscriptionExpired(row.end_date, row.cancelled_at, today),
    pausedSince,
    status: periodOf(row, today),
    invoice,
  };
}

type InvoiceRow = Awaited<ReturnType<typeof repo.paidInvoicesOf>>[number];
const toPaidInvoice = (r: InvoiceRow): NonNullable<PaidInvoice> => ({
  number: r.number,
  planPricePaise: Number((r.lines as Array<{ amountPaise: number }>)[0]?.amountPaise ?? 0),
  discountPaise: Number(r.discount_paise),
  taxPaise: Number(r.cgst_paise) + Number(r.sgst_paise) + Number(r.igst_paise),
  totalPaise: Number(r.total_paise),
});

/**
 * A client's subscriptions: the running plan first, then those paid ahead
 * (by start date), then ended ones, newest first; `active` keeps the running
 * and upcoming ones. Each paid by invoice carries that invoice's figures, so
 * "amount paid" is what the invoice said.
 */
export async function listSubscriptions(db: Db, actor: SessionUser, input: ListSubscriptionsInput, today = todayUtc()) {
  const clientId = await clientToActFor(db, actor, input.id, 'id');
  const rows = await repo.listSubscriptions(db, clientId, { activeOn: input.active ? today : undefined });
  const ids = rows.map((r) => r.id);
  const [pauses, invoices] = await Promise.all([repo.openPauses(db, ids), repo.paidInvoicesOf(db, ids)]);
  const paused = new Map(pauses.map((p) => [p.subscription_id, p.paused_from]));
  const paidBy = new Map(invoices.map((i) => [i.subscription_id, toPaidInvoice(i)]));
  return rows.map((row) => toSubscription(row, today, paused.get(row.id) ?? null, paidBy.get(row.id) ?? null)).sort(byPeriod);
}

/**
 * Puts a client on a catalogue plan: the name and list price come from the
 * catalogue and the end date from the plan's length, so callers (the demo
 * seed, the back office) only say which plan, from when, and what was paid.
 */
export async function assignSubscription(db: Db, input: AssignSubscriptionInput, today = todayUtc()): Promise<Subscription> {
  const parsed = assignSubscriptionInput.safeParse(input);
  if (!parsed.success) throw badRequest(issueMessage(parsed.error.issues[0]!), zodFieldErrors(parsed.error));
  const { clientId, planType, planId, startDate, amountReceived } = parsed.data;
  const plan = findPlan(planType, planId);
  if (!plan) {
    const message = `The ${planType} catalogue has no plan ${planId}.`;
    throw badRequest(message, { planId: [message] });
  }
  await requireClient(db, clientId, 'clientId');
  const row = await repo.insertSubscription(db, {
    client_id: clientId,
    plan_type: plan.type,
    plan_id: plan.id,
    plan_name: plan.name,
    list_price: plan.listPrice,
    amount_received: amountReceived,
    start_date: startDate,
    end_date: planEndDate(startDate, plan),
  });
  return toSubscription(row, today);
}

const SUBSCRIPTION_MISSING = 'That subscription does not exist.';
const rupees = (n: number) => `₹${n.toLocaleString('en-IN')}`;

type WithClientRow = NonNullable<Awaited<ReturnType<typeof repo.lockSubscriptionWithClient>>>;

function toAdminSubscription(r: WithClientRow, today: string): AdminSubscription {
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

/** The console's list: every client's subscriptions, newest first, or one client's; "active" as the client's card counts it. */
export async function listAllSubscriptions(
  db: Db,
  input: { clientId?: number; state: 'all' | 'active' | 'expired'; page: number; pageSize: number },
  today = todayUtc(),
) {
  return mapPage(await repo.pageSubscriptionsWithClients(db, input, today), (r) => toAdminSubscription(r, today));
}

/** A dietitian puts a client on a plan: assignSubscription's rule, an audit entry, and a mail to the client. */
export async function assignPlan(deps: MailDeps, actor: SessionUser, input: AssignSubscriptionInput) {
  const saved = await deps.db.transaction().execute(async (trx) => {
    const created = await assignSubscription(trx, input);
    await recordAudit(trx, actor, {
      action: 'subscription.assigned',
      entity: 'subscription',
      entityId: created.id,
      summary: `Put client #${input.clientId} on ${created.planId_fk.planName}, ${formatDay(created.startDate)} to ${formatDay(created.endDate)}, paid ${rupees(created.amountReceived)}`,
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
export async function expireSubscription(db: Db, actor: SessionUser, input: { id: number }, today = todayUtc()) {
  const { id } = input;
  return db.transaction().execute(async (trx) => {
    const s = await repo.lockSubscriptionWithClient(trx, id);
    if (!s) throw notFound(SUBSCRIPTION_MISSING);
    if (isSubscriptionExpired(s.end_date, s.cancelled_at, today)) throw badRequest('This subscription has already ended.');
    await repo.cancelSubscription(trx, id);
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

/** Another period of the same plan: from the day after this one ends, or from today if it is over. */
export async function renewSubscription(
  deps: MailDeps,
  actor: SessionUser,
  input: { id: number; startDate?: string; amountReceived: number },
  today = todayUtc(),
) {
  const saved = await deps.db.transaction().execute(async (trx) => {
    const s = await repo.lockSubscriptionWithClient(trx, input.id);
    if (!s) throw notFound(SUBSCRIPTION_MISSING);
    const startDate = input.startDate ?? (s.cancelled_at || s.end_date < today ? today : addDays(s.end_date, 1));
    const created = await assignSubscription(trx, {
      clientId: s.client_id,
      planType: s.plan_type,
      planId: s.plan_id,
      startDate,
      amountReceived: input.amountReceived,
    } as AssignSubscriptionInput);
    await recordAudit(trx, actor, {
      action: 'subscription.renewed',
      entity: 'subscription',
      entityId: created.id,
      summary: `Renewed ${s.plan_name} of ${s.first_name} ${s.last_name}: ${formatDay(created.startDate)} to ${formatDay(created.endDate)}, paid ${rupees(created.amountReceived)}`,
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
