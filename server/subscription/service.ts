import { clientToActFor, requireClient } from '../auth/guards.js';
import type { SessionUser } from '../auth/session.js';
import { findPlan } from '../catalogue/plans.js';
import type { Db } from '../db/index.js';
import { badRequest, issueMessage, zodFieldErrors } from '../errors.js';
import { todayUtc } from '../validation.js';
import { isSubscriptionExpired, planEndDate } from './period.js';
import * as repo from './repo.js';
import { type AssignSubscriptionInput, assignSubscriptionInput, type ListSubscriptionsInput, type Subscription } from './schema.js';

type SubscriptionRow = Awaited<ReturnType<typeof repo.insertSubscription>>;

function toSubscription(row: SubscriptionRow, today: string, pausedSince: string | null = null): Subscription {
  return {
    id: row.id,
    planId_fk: { planType: row.plan_type, planMRP: row.list_price, planName: row.plan_name, planId: row.plan_id },
    amountReceived: row.amount_received,
    startDate: row.start_date,
    endDate: row.end_date,
    isExpired: isSubscriptionExpired(row.end_date, row.cancelled_at, today),
    pausedSince,
  };
}

/** A client's subscriptions, newest first; `active` keeps only the running ones. */
export async function listSubscriptions(db: Db, actor: SessionUser, input: ListSubscriptionsInput, today = todayUtc()) {
  const clientId = await clientToActFor(db, actor, input.id, 'id');
  const rows = await repo.listSubscriptions(db, clientId, { activeOn: input.active ? today : undefined });
  const paused = new Map(
    (
      await repo.openPauses(
        db,
        rows.map((r) => r.id),
      )
    ).map((p) => [p.subscription_id, p.paused_from]),
  );
  return rows.map((row) => toSubscription(row, today, paused.get(row.id) ?? null));
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
