import { recordAudit } from '../audit/record.js';
import { requireClient } from '../auth/guards.js';
import type { SessionUser } from '../auth/session.js';
import { checkInOverview } from '../check-in/service.js';
import type { AppDeps } from '../deps.js';
import type { Db } from '../db/index.js';
import { listDietPlansInput } from '../diet-plan/schema.js';
import { listDietPlans } from '../diet-plan/service.js';
import { fullNameOf } from '../auth/session.js';
import { listSubscriptions } from '../subscription/service.js';
import { todayUtc } from '../validation.js';
import { listWeights } from '../weight/service.js';
import * as repo from './repo.js';
import type { InboxInput } from './schema.js';
import { conversationFor, summarize } from './service.js';

/** The console's inbox: every conversation, newest first, filtered and searched. */

/** Weights beside an open conversation: the latest ones, enough for a trend line. */
export const PANEL_WEIGHTS = 30;

export async function inbox(db: Db, actor: SessionUser, input: InboxInput) {
  const q = input.q ? input.q : undefined;
  const [page, unread] = await Promise.all([
    repo.pageConversations(db, actor.id, false, { filter: input.filter, q }, input),
    repo.totalUnread(db, actor.id, false),
  ]);
  const [items, matches] = await Promise.all([
    summarize(db, actor, page.rows),
    q
      ? repo.latestMatches(
          db,
          page.rows.map((r) => r.id),
          q,
        )
      : Promise.resolve([]),
  ]);
  const matchById = new Map(matches.map((m) => [m.conversation_id, { seq: m.seq, text: m.text }]));
  return {
    items: items.map((s) => ({ ...s, match: matchById.get(s.id) ?? null })),
    total: page.total,
    page: input.page,
    pageSize: input.pageSize,
    totalUnread: unread.totalUnread,
  };
}

/**
 * What a dietitian needs beside an open conversation: the client's latest
 * check-in, weight trend, active plan and subscription, from those domains'
 * own services. Opening it is recorded in the audit log (health data access).
 */
export async function panel(deps: Pick<AppDeps, 'db' | 'secret' | 'config'>, actor: SessionUser, conversationId: number, now: Date) {
  const conversation = await conversationFor(deps.db, actor, conversationId);
  const clientId = conversation.client_id;
  const today = todayUtc(now);
  const [checkIns, weights, plans, subscriptions, page] = await Promise.all([
    checkInOverview(deps.db, actor, clientId, today),
    listWeights(deps.db, actor, clientId),
    listDietPlans(deps, actor, listDietPlansInput.parse({ user: clientId }), now.getTime()),
    listSubscriptions(deps.db, actor, { id: clientId, active: true }, today),
    repo.pageConversations(deps.db, actor.id, false, { clientId }, { page: 0, pageSize: 1 }),
  ]);
  await recordAudit(deps.db, actor, {
    action: 'conversation.opened',
    entity: 'conversation',
    entityId: conversation.id,
    summary: `Opened the conversation with ${fullNameOf({ first_name: conversation.client_first, last_name: conversation.client_last })} and its side panel`,
    details: { clientId },
  });
  const latest = checkIns.history[0] ?? null;
  const plan = plans.data.find((p) => p.from <= today && today <= p.to) ?? plans.data[0] ?? null;
  const sub = subscriptions[0] ?? null;
  return {
    conversation: (await summarize(deps.db, actor, page.rows))[0]!,
    latestCheckIn: latest && {
      id: latest.id,
      date: latest.date,
      weight: latest.weight,
      adherence: latest.adherence,
      notes: latest.notes,
      reply: latest.reply,
      createdAt: latest.createdAt,
    },
    nextCheckIn: { state: checkIns.next.state, dueDate: checkIns.next.dueDate },
    weights: weights
      .slice(0, PANEL_WEIGHTS)
      .reverse()
      .map((w) => ({ date: w.date, weight: w.weight })),
    activePlan: plan && { id: plan.id, title: plan.title, from: plan.from, to: plan.to },
    subscription: sub && {
      id: sub.id,
      planName: sub.planId_fk.planName,
      startDate: sub.startDate,
      endDate: sub.endDate,
      status: sub.pausedSince ? 'Paused' : sub.isExpired ? 'Ended' : 'Active',
    },
  };
}

/** The conversation of a client, made if needed, for the console's "Message" button on a client. */
export async function conversationOfClient(db: Db, clientId: number) {
  await requireClient(db, clientId, 'clientId');
  const c = await repo.ensureConversation(db, clientId);
  return { conversationId: c.id };
}
