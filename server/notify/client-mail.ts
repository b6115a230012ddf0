import type { AppDeps } from '../deps.js';
import { publicBaseUrl } from '../auth/service.js';
import { dietPlanPublishedMail, subscriptionAssignedMail } from '../mail/templates.js';

/**
 * Mails that keep a client informed of what their dietitian did (issue 12).
 * Called after the change has committed; queued, so the console's answer
 * never waits on SMTP. Each reads what it tells from the database, so the
 * mail says what the client will see.
 */

export type MailDeps = Pick<AppDeps, 'db' | 'mailer' | 'config'>;

export async function mailSubscriptionAssigned(deps: MailDeps, subscriptionId: number) {
  const row = await deps.db
    .selectFrom('subscriptions as s')
    .innerJoin('users as u', 'u.id', 's.client_id')
    .select(['u.email', 'u.first_name', 'u.is_active', 's.plan_name', 's.start_date', 's.end_date', 's.amount_received'])
    .where('s.id', '=', subscriptionId)
    .executeTakeFirst();
  if (!row?.is_active) return;
  await deps.mailer.queue(
    subscriptionAssignedMail({
      to: row.email,
      firstName: row.first_name,
      planName: row.plan_name,
      startDate: row.start_date,
      endDate: row.end_date,
      amountReceived: row.amount_received,
      link: `${publicBaseUrl(deps)}/dashboard/active-subscription`,
    }),
  );
}

export async function mailDietPlanPublished(deps: MailDeps, planId: number) {
  const row = await deps.db
    .selectFrom('diet_plans as p')
    .innerJoin('users as u', 'u.id', 'p.client_id')
    .select(['u.email', 'u.first_name', 'u.is_active', 'p.title', 'p.from_date', 'p.to_date', 'p.version'])
    .where('p.id', '=', planId)
    .executeTakeFirst();
  if (!row?.is_active) return;
  await deps.mailer.queue(
    dietPlanPublishedMail({
      to: row.email,
      firstName: row.first_name,
      title: row.title,
      fromDay: row.from_date,
      toDay: row.to_date,
      version: row.version,
      link: `${publicBaseUrl(deps)}/dashboard/diet-plan`,
    }),
  );
}
