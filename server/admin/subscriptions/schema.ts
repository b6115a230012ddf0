import { z } from 'zod';
import { PLAN_TYPES } from '../../catalogue/plans.js';
import { assignSubscriptionInput } from '../../subscription/schema.js';
import { dateField, idField } from '../../validation.js';
import { pageInput, pageOf } from '../common.js';

/** Subscriptions in the console. zod only; the catalogue comes from server/catalogue/plans.ts. */

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

export const SUBSCRIPTION_STATUS = ['Active', 'Upcoming', 'Ended', 'Cancelled'] as const;
export const adminSubscription = z.object({
  id: z.number().int(),
  client: z.object({ id: z.number().int(), fullName: z.string() }),
  planType: z.enum(PLAN_TYPES),
  planId: z.string(),
  planName: z.string(),
  listPrice: z.number().int(),
  amountReceived: z.number().int(),
  startDate: z.string(),
  endDate: z.string(),
  cancelledAt: z.date().nullable(),
  isExpired: z.boolean(),
  status: z.enum(SUBSCRIPTION_STATUS),
  createdAt: z.date(),
});
export type AdminSubscription = z.infer<typeof adminSubscription>;
export const subscriptionPage = pageOf(adminSubscription);
