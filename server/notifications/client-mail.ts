import type { AppDeps } from '../deps.js';
import { publicBaseUrl } from '../http/public-url.js';
import { findPlanForMail } from '../diet-plan/repo.js';
import { dietPlanPublishedMail, subscriptionAssignedMail } from '../mail/templates.js';
import { sendNotices } from './notify.js';
import { findSubscriptionForMail } from '../subscription/repo.js';

/**
 * Mails that keep a client informed of what their dietitian did.
 * Called after the change has committed; queued, so the console's answer
 * never waits on SMTP. Each reads what it tells from the database, so the
 * mail says what the client will see.
 */

export type MailDeps = Pick<AppDeps, 'db' | 'mailer' | 'config'> & Partial<Pick<AppDeps, 'jobs'>>;

export async function mailSubscriptionAssigned(deps: MailDeps, subscriptionId: number) {
  const row = await findSubscriptionForMail(deps.db, subscriptionId);
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

/** A new diet plan (or version): e-mail and push, as the client's "plans" preferences allow. The push never names the plan. */
export async function mailDietPlanPublished(deps: MailDeps, planId: number) {
  const row = await findPlanForMail(deps.db, planId);
  if (!row?.is_active) return;
  await sendNotices(deps, [
    {
      userId: row.user_id,
      category: 'plans',
      key: `plan:${planId}`,
      push: { title: 'Your new diet plan is ready', body: 'Your dietitian shared a diet plan with you.', path: '/dashboard/diet-plan' },
      mail: dietPlanPublishedMail({
        to: row.email,
        firstName: row.first_name,
        title: row.title,
        fromDay: row.from_date,
        toDay: row.to_date,
        version: row.version,
        link: `${publicBaseUrl(deps)}/dashboard/diet-plan`,
      }),
    },
  ]);
}
