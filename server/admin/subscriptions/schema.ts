import { z } from 'zod';
import { adminSubscription, assignSubscriptionInput } from '../../subscription/schema.js';
import { dateField, idField } from '../../validation.js';
import { pageInput, pageOf } from '../common.js';

/**
 * Subscriptions in the console: the list, assign and renew inputs. zod only;
 * the shape returned lives in server/subscription/schema.ts.
 */

export const SUBSCRIPTION_STATES = ['all', 'active', 'expired'] as const;
export const listSubscriptionsAdminInput = pageInput.extend({
  clientId: idField('clientId').optional(),
  state: z.enum(SUBSCRIPTION_STATES).default('all'),
});

/** A form sends the amount as text; the subscription domain's rule does the rest. */
const rupees = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.replace(/[₹,\s]/g, ''))) : v),
  z.unknown(),
);

export const assignForm = z.object({
  planType: assignSubscriptionInput.shape.planType,
  planId: assignSubscriptionInput.shape.planId,
  startDate: assignSubscriptionInput.shape.startDate,
  amountReceived: rupees.pipe(assignSubscriptionInput.shape.amountReceived),
});
export const assignAdminInput = assignForm.extend({ clientId: idField('clientId') });

export const renewForm = z.object({
  /** Defaults to the day after the current one ends (or today, if it already has). */
  startDate: dateField('Start date is required').optional(),
  amountReceived: rupees.pipe(assignSubscriptionInput.shape.amountReceived),
});
export const renewAdminInput = renewForm.extend({ id: idField('id') });

export const subscriptionPage = pageOf(adminSubscription);
