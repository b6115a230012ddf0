import { fullNameOf, type SessionUser } from '../auth/session.js';
import { recordAudit } from '../audit/record.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { isSubscriptionExpired } from '../subscription/period.js';
import { formatDay } from '../format.js';
import { todayUtc } from '../validation.js';
import { addDays, daysBetween } from '../time.js';
import type { FollowUpDeps } from './follow-ups.js';
import { subscriptionPausedMail, subscriptionResumedMail } from '../mail/templates.js';
import * as repo from './repo.js';

/**
 * Pausing and resuming a subscription (decision record 071). While paused no
 * check-in is due; resuming moves the end date out by the paused days. Both
 * are audited in the same transaction, announced live and mailed to the client.
 */

const SUBSCRIPTION_MISSING = 'That subscription does not exist.';

export async function pauseSubscription(
  deps: FollowUpDeps,
  actor: SessionUser,
  input: { subscriptionId: number; from: string; reason: string | null },
  today = todayUtc(),
) {
  const s = await deps.db.transaction().execute(async (trx) => {
    const s = await repo.lockSubscription(trx, input.subscriptionId);
    if (!s) throw notFound(SUBSCRIPTION_MISSING);
    if (isSubscriptionExpired(s.end_date, s.cancelled_at, today)) throw badRequest('This subscription has ended, so it cannot be paused.');
    if (await repo.openPause(trx, s.id)) throw conflict('This subscription is already paused.');
    const field = (message: string) => badRequest(message, { from: [message] });
    if (input.from < s.start_date) throw field(`The pause cannot start before the subscription does (${formatDay(s.start_date)}).`);
    if (input.from > today) throw field('The pause date cannot be in the future: pause on the day it starts.');
    const latestPause = (await repo.pausesOf(trx, [s.id])).at(-1);
    if (latestPause?.resumed_on && input.from < latestPause.resumed_on)
      throw field(`The pause cannot start before the last pause ended (${formatDay(latestPause.resumed_on)}).`);
    await repo.insertPause(trx, { subscription_id: s.id, paused_from: input.from, reason: input.reason, paused_by: actor.id });
    await recordAudit(trx, actor, {
      action: 'subscription.paused',
      entity: 'subscription',
      entityId: s.id,
      summary: `Paused ${s.plan_name} of ${fullNameOf(s)} from ${formatDay(input.from)}`,
      details: { clientId: s.client_id, from: input.from, reason: input.reason },
    });
    await deps.followUpBus.publish(trx, { kind: 'schedule.changed', clientId: s.client_id });
    return s;
  });
  await deps.mailer.send(
    subscriptionPausedMail({ to: s.email, firstName: s.first_name, planName: s.plan_name, pausedFrom: input.from, reason: input.reason }),
  );
  return { message: `${s.plan_name} of ${s.first_name} is paused from ${formatDay(input.from)}.` };
}

export async function resumeSubscription(
  deps: FollowUpDeps,
  actor: SessionUser,
  input: { subscriptionId: number; on?: string },
  today = todayUtc(),
) {
  const done = await deps.db.transaction().execute(async (trx) => {
    const s = await repo.lockSubscription(trx, input.subscriptionId);
    if (!s) throw notFound(SUBSCRIPTION_MISSING);
    const pause = await repo.openPause(trx, s.id);
    if (!pause) throw conflict('This subscription is not paused.');
    const on = input.on ?? today;
    const field = (message: string) => badRequest(message, { on: [message] });
    if (on < pause.paused_from) throw field(`The resume date cannot be before the pause began (${formatDay(pause.paused_from)}).`);
    if (on > today) throw field('The resume date cannot be in the future.');
    const pausedDays = daysBetween(pause.paused_from, on);
    const endDate = addDays(s.end_date, pausedDays);
    await repo.closePause(trx, pause.id, s.id, on, actor.id, endDate);
    await recordAudit(trx, actor, {
      action: 'subscription.resumed',
      entity: 'subscription',
      entityId: s.id,
      summary: `Resumed ${s.plan_name} of ${fullNameOf(s)} on ${formatDay(on)} after ${pausedDays} paused days; now ends ${formatDay(endDate)}`,
      details: {
        clientId: s.client_id,
        pausedFrom: pause.paused_from,
        resumedOn: on,
        pausedDays,
        endDate: { from: s.end_date, to: endDate },
      },
    });
    await deps.followUpBus.publish(trx, { kind: 'schedule.changed', clientId: s.client_id });
    return { s, on, pausedDays, endDate };
  });
  const { s, on, pausedDays, endDate } = done;
  await deps.mailer.send(
    subscriptionResumedMail({
      to: s.email,
      firstName: s.first_name,
      publicUrl: deps.config.publicUrl,
      planName: s.plan_name,
      resumedOn: on,
      pausedDays,
      endDate,
    }),
  );
  return { message: `${s.plan_name} of ${s.first_name} resumed; it now ends on ${formatDay(endDate)}.`, endDate };
}
