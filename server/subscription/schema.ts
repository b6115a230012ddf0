import { z } from 'zod';
import { PLAN_IDS, PLAN_TYPES } from '../catalogue/plans.js';
import { dateField, idField, pageInput, pageOf } from '../validation.js';

/** A client holds a handful of subscriptions over the years; the list is still capped. */
export const SUBSCRIPTION_LIST_LIMIT = 50;
/** A sanity ceiling for a single payment, in rupees (the dearest plan is ₹21,999). */
export const AMOUNT_RECEIVED_MAX = 1_000_000;

const BOOLEAN_WORDS = new Map<unknown, boolean>([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
]);

/** `?active=true` from a query string, or a boolean from tRPC. */
export const activeFlag = z.preprocess(
  (v) => (typeof v === 'string' ? (BOOLEAN_WORDS.get(v.trim().toLowerCase()) ?? v) : v),
  z.boolean({ error: 'active must be true or false' }),
);

export const listSubscriptionsInput = z.object({
  id: idField('id').optional(),
  active: activeFlag.optional(),
});

export const planType = z.enum(PLAN_TYPES, { error: `Plan type must be one of ${PLAN_TYPES.join(', ')}` });

/** Where a subscription stands on a day: the client's card lists running plans first, then upcoming ones by start date. */
export const SUBSCRIPTION_PERIODS = ['active', 'upcoming', 'ended'] as const;
export type SubscriptionPeriod = (typeof SUBSCRIPTION_PERIODS)[number];

export const subscription = z.object({
  id: z.number().int(),
  planId_fk: z.object({
    planType,
    /** List price in whole rupees. */
    planMRP: z.number().int(),
    planName: z.string(),
    planId: z.string(),
  }),
  /** Whole rupees. */
  amountReceived: z.number().int(),
  startDate: z.string(),
  endDate: z.string(),
  isExpired: z.boolean(),
  /** The day an open pause began (no check-ins are due while paused), else null. */
  pausedSince: z.string().nullable(),
  /** Running now, paid ahead and not begun yet (a renewal starts the day after the running plan ends), or over. */
  status: z.enum(SUBSCRIPTION_PERIODS),
  /** The paid invoice that started it, when it was paid by invoice: what the client actually paid, in paise. */
  invoice: z
    .object({
      number: z.string(),
      /** The plan's line on the invoice (its selling price, not the list price). */
      planPricePaise: z.number().int(),
      discountPaise: z.number().int(),
      /** CGST + SGST or IGST. */
      taxPaise: z.number().int(),
      totalPaise: z.number().int(),
    })
    .nullable(),
});

/** What the back office (and the demo seed) give to put a client on a plan. */
export const assignSubscriptionInput = z.object({
  clientId: idField('clientId'),
  planType,
  planId: z.enum(PLAN_IDS, { error: 'Choose a plan from the catalogue' }),
  startDate: dateField('Start date is required'),
  amountReceived: z
    .number({ error: 'Amount received is required' })
    .int('Amount received must be whole rupees')
    .min(0, 'Amount received cannot be negative')
    .max(AMOUNT_RECEIVED_MAX, `Amount received cannot exceed ₹${AMOUNT_RECEIVED_MAX.toLocaleString('en-IN')}`),
});

export type ListSubscriptionsInput = z.infer<typeof listSubscriptionsInput>;
export type AssignSubscriptionInput = z.input<typeof assignSubscriptionInput>;
export type Subscription = z.infer<typeof subscription>;

/** A subscription as the console lists it, with its client and a status word. */
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

/* Subscriptions in the console: the list, assign and renew inputs. */

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
