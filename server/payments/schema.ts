import { z } from 'zod';
import { findPlan, PLAN_IDS, PLAN_TYPES, type PlanId } from '../catalogue/plans.js';
import { dateField, idempotencyKey, idField, optionalText, requiredText } from '../validation.js';
import { MAX_INVOICE_PAISE, MAX_TAX_RATE_BP } from './money.js';
import { GST_STATE_CODES } from './states.js';

/**
 * Payments: the rules and shapes of invoices, claims and the
 * clinic's billing details. zod only, shared with the console's and the
 * dashboard's forms. Every amount is integer paise.
 */

export const INVOICE_STATUSES = ['issued', 'claimed', 'paid', 'void'] as const;
/** How an invoice was paid: a confirmed UPI claim, the gateway, or recorded by a dietitian (cash, bank transfer). */
export const PAID_VIA = ['upi', 'razorpay', 'cash', 'bank_transfer'] as const;
export const OFFLINE_METHODS = ['cash', 'bank_transfer'] as const;
export type OfflineMethod = (typeof OFFLINE_METHODS)[number];
export const PAID_VIA_LABEL: Record<(typeof PAID_VIA)[number], string> = {
  upi: 'UPI',
  razorpay: 'Paid online',
  cash: 'Cash',
  bank_transfer: 'Bank transfer',
};
/** How far back a recorded payment may be dated: a dietitian catching up on last quarter's cash, not a typo of the year. */
export const RECORDED_PAYMENT_MAX_AGE_DAYS = 366;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** What the lists filter by: a stored status, or "overdue" (issued or claimed, past its due date). */
export const INVOICE_FILTERS = ['all', ...INVOICE_STATUSES, 'overdue', 'open'] as const;
export const MAX_INVOICE_LINES = 10;
export const DEFAULT_DUE_DAYS = 7;
/** A client's own list, and a page of the console's: far above a real client's invoices. */
export const INVOICE_LIST_LIMIT = 100;
export const UTR_MESSAGE = 'Enter the 12-digit UTR (UPI reference number) from your UPI app';
/** A guess at the services' SAC (other human health services): the README asks the clinic to confirm it with an accountant. */
export const DEFAULT_SAC = '999319';
export const TAX_RATES_BP = [0, 500, 1200, 1800, 2800] as const;

const stateCode = (label: string) => z.enum(GST_STATE_CODES, { error: `${label}: choose a state from the list` });

const GSTIN = /^(\d{2})[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const VPA = /^[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9]{1,63}$/;

export const billingSettingsInput = z
  .object({
    legalName: requiredText('Legal name is required', 120),
    address: requiredText('Address is required', 300, { multiline: true }),
    stateCode: stateCode('State'),
    /** Blank: not registered for GST, and invoices carry no tax lines. */
    gstin: z
      .string({ error: 'GSTIN must be text' })
      .trim()
      .toUpperCase()
      .refine((v) => v === '' || GSTIN.test(v), 'GSTIN must be 15 characters like 27ABCDE1234F1Z5 (or leave it blank if not registered)')
      .nullish()
      .transform((v) => (v ? v : null)),
    sacCode: z
      .string({ error: 'SAC is required' })
      .trim()
      .regex(/^\d{6}$/, 'SAC must be 6 digits, e.g. 999319'),
    taxRateBp: z
      .number({ error: 'Tax rate is required' })
      .int('Tax rate must be whole basis points')
      .min(0, 'Tax rate cannot be negative')
      .max(MAX_TAX_RATE_BP, 'Tax rate cannot exceed 28%'),
    upiVpa: z.string({ error: 'UPI id is required' }).trim().regex(VPA, 'UPI id must look like clinic@okbank'),
    payeeName: requiredText('Payee name is required', 60),
    invoicePrefix: z
      .string({ error: 'Invoice prefix is required' })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{1,4}$/, 'Invoice prefix must be 1 to 4 letters, e.g. PSN'),
  })
  .superRefine((v, ctx) => {
    if (v.gstin && v.gstin.slice(0, 2) !== v.stateCode) {
      ctx.addIssue({ code: 'custom', path: ['gstin'], message: 'The GSTIN’s first two digits must be the state’s code' });
    }
  });
export type BillingSettingsInput = z.input<typeof billingSettingsInput>;

export const billingSettings = z.object({
  legalName: z.string(),
  address: z.string(),
  stateCode: z.string(),
  gstin: z.string().nullable(),
  sacCode: z.string(),
  taxRateBp: z.number().int(),
  upiVpa: z.string(),
  payeeName: z.string(),
  invoicePrefix: z.string(),
});
export type BillingSettings = z.infer<typeof billingSettings>;

const paise = (label: string, max = MAX_INVOICE_PAISE) =>
  z
    .number({ error: (iss) => (iss.input == null ? `${label} is required` : `${label} must be a number of paise`) })
    .int(`${label} must be whole paise`)
    .min(0, `${label} cannot be negative`)
    .max(max, `${label} cannot exceed ₹${(max / 100).toLocaleString('en-IN')}`);

export const customLine = z.object({
  description: requiredText('Line description is required', 120),
  quantity: z
    .number({ error: 'Quantity must be a number' })
    .int('Quantity must be a whole number')
    .min(1, 'Quantity must be at least 1')
    .max(100, 'Quantity must be at most 100')
    .default(1),
  unitPaise: paise('Line price'),
});

export const createInvoiceInput = z
  .object({
    clientId: idField('clientId'),
    /** A catalogue plan: its name and selling price come from the catalogue; paying for it starts or extends the plan. */
    plan: z
      .object({
        planType: z.enum(PLAN_TYPES, { error: `Plan type must be one of ${PLAN_TYPES.join(', ')}` }),
        planId: z.enum(PLAN_IDS, { error: 'Choose a plan from the catalogue' }),
      })
      .nullish(),
    lines: z.array(customLine).max(MAX_INVOICE_LINES, `At most ${MAX_INVOICE_LINES} lines`).default([]),
    discountPaise: paise('Discount').default(0),
    /** The client's state (place of supply); asked when registered for GST. */
    clientStateCode: stateCode('Client’s state').nullish(),
    dueInDays: z
      .number({ error: 'Due in days must be a number' })
      .int('Due in days must be a whole number')
      .min(0, 'Due in days cannot be negative')
      .max(90, 'Due in days must be at most 90')
      .default(DEFAULT_DUE_DAYS),
    notes: optionalText('Notes', 300),
    clientRequestId: idempotencyKey('clientRequestId'),
  })
  .refine((v) => v.plan || v.lines.length > 0, { message: 'Add a plan or at least one line', path: ['lines'] });
export type CreateInvoiceInput = z.input<typeof createInvoiceInput>;

const RUPEES_TEXT = /^₹?\s*\d[\d,]*(\.\d{1,2})?$/;
/** Rupees as typed ('1,499', '₹1499.50') as paise; blank is 0; null when it is not an amount. */
export function rupeesTextToPaise(text: string): number | null {
  const v = text.trim();
  if (v === '') return 0;
  if (!RUPEES_TEXT.test(v)) return null;
  return Math.round(Number(v.replace(/[₹,\s]/g, '')) * 100);
}

/**
 * Rupees as the console's form takes them ('1,499', '₹1499.50', blank for
 * none): paise, under the same rule as the API's amounts.
 */
const formRupees = (label: string) =>
  z
    .string({ error: `${label} must be an amount in rupees` })
    .trim()
    .refine((v) => rupeesTextToPaise(v) !== null, `${label} must be an amount in rupees, like 1,499 or 1499.50`)
    .transform((v) => rupeesTextToPaise(v) ?? 0)
    .pipe(paise(label));

/**
 * The console's "Issue an invoice" form: a client, a catalogue plan and/or
 * one custom line in rupees, a discount, the client's state. Its output is
 * createInvoiceInput without the request key; the server works out the rest.
 */
export const issueInvoiceForm = z
  .object({
    clientId: z.string({ error: 'Choose the client' }).regex(/^\d+$/, 'Choose the client').transform(Number),
    planType: z.enum(PLAN_TYPES, { error: `Plan type must be one of ${PLAN_TYPES.join(', ')}` }),
    /** Blank: no plan. */
    planId: z.string(),
    lineDescription: z.string().trim().max(120, 'A line description can be at most 120 characters'),
    linePrice: formRupees('Line price'),
    discount: formRupees('Discount'),
    /** Blank: not known (asked when the clinic is registered for GST). */
    clientStateCode: z.union([z.literal(''), stateCode('Client’s state')]),
  })
  .superRefine((v, ctx) => {
    if (v.planId && !findPlan(v.planType, v.planId))
      ctx.addIssue({ code: 'custom', path: ['planId'], message: 'Choose a plan from the list' });
    if (!v.planId && !v.lineDescription)
      ctx.addIssue({ code: 'custom', path: ['lineDescription'], message: 'Add a plan or a custom line' });
    if (v.lineDescription && v.linePrice === 0) ctx.addIssue({ code: 'custom', path: ['linePrice'], message: 'Give the line a price' });
  })
  .transform((v) => ({
    clientId: v.clientId,
    plan: v.planId ? { planType: v.planType, planId: v.planId as PlanId } : null,
    lines: v.lineDescription ? [{ description: v.lineDescription, quantity: 1, unitPaise: v.linePrice }] : [],
    discountPaise: v.discount,
    clientStateCode: v.clientStateCode || null,
  }));

/** A number from JSON or a query string. */
const queryInt = (label: string, min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: `${label} must be a number` })
      .int(`${label} must be a whole number`)
      .min(min, `${label} must be between ${min} and ${max}`)
      .max(max, `${label} must be between ${min} and ${max}`),
  );

export const listInvoicesInput = z.object({
  /** A dietitian may name one client; a client sees only their own. */
  clientId: idField('clientId').optional(),
  status: z.enum(INVOICE_FILTERS, { error: `status must be one of ${INVOICE_FILTERS.join(', ')}` }).default('all'),
  page: queryInt('page', 0, 100_000).default(0),
  pageSize: queryInt('pageSize', 1, INVOICE_LIST_LIMIT).default(25),
});
export type ListInvoicesInput = z.input<typeof listInvoicesInput>;

export const invoiceIdInput = z.object({ id: idField('id') });

export const utrField = z
  .string({ error: UTR_MESSAGE })
  .transform((v) => v.replace(/[\s-]/g, ''))
  .pipe(z.string().regex(/^\d{12}$/, UTR_MESSAGE));
export const claimForm = z.object({ utr: utrField });
export const claimInput = claimForm.extend({ id: idField('id') });
export const reasonForm = z.object({ reason: requiredText('Reason is required', 300) });
export const rejectInput = reasonForm.extend({ id: idField('id') });
export const voidInput = reasonForm.extend({ id: idField('id') });

const offlineMethod = z.enum(OFFLINE_METHODS, { error: 'Choose how it was paid: cash or bank transfer' });
const receivedOn = dateField('Enter the day the payment was received');
const BANK_REFERENCE_MESSAGE = 'Enter the bank’s reference (UTR or transaction id) for a bank transfer';
/** A bank's reference: letters, digits and the odd dash or slash, as statements print them. */
const paymentReference = optionalText('Reference', 40).refine(
  (v) => v === null || /^[A-Za-z0-9][A-Za-z0-9 /_-]*$/.test(v),
  'A reference may hold letters, digits, spaces, - / and _ only',
);

const bankTransferNamesReference = (v: { method: OfflineMethod; reference: string | null }, ctx: z.RefinementCtx) => {
  if (v.method === 'bank_transfer' && !v.reference) ctx.addIssue({ code: 'custom', path: ['reference'], message: BANK_REFERENCE_MESSAGE });
};
const recordPaymentFields = z.object({
  method: offlineMethod,
  amountPaise: paise('Amount').refine((v) => v > 0, 'Amount must be more than ₹0'),
  reference: paymentReference,
  receivedOn,
  clientRequestId: idempotencyKey('clientRequestId'),
});

/**
 * A dietitian records a payment made outside UPI claims and the gateway
 * (cash at the clinic, a bank transfer): it pays the invoice whole, so the
 * amount must be the invoice's total. A bank transfer names its reference.
 */
export const recordPaymentInput = recordPaymentFields.extend({ id: idField('id') }).superRefine(bankTransferNamesReference);
export type RecordPaymentInput = z.input<typeof recordPaymentInput>;
/** The REST body: the invoice comes from the path. */
export const recordPaymentBody = recordPaymentFields.superRefine(bankTransferNamesReference);

/** The console's "Record a payment" form: the amount in rupees as typed. */
export const recordPaymentForm = z
  .object({
    method: offlineMethod,
    amount: formRupees('Amount').refine((v) => v > 0, 'Enter the amount received'),
    reference: paymentReference,
    receivedOn,
  })
  .superRefine(bankTransferNamesReference)
  .transform(({ amount, ...rest }) => ({ ...rest, amountPaise: amount }));

const line = z.object({
  description: z.string(),
  sac: z.string().nullable(),
  quantity: z.number().int(),
  unitPaise: z.number().int(),
  amountPaise: z.number().int(),
});

export const invoice = z.object({
  id: z.number().int(),
  number: z.string(),
  status: z.enum(INVOICE_STATUSES),
  /** Issued or claimed, and past its due date. */
  overdue: z.boolean(),
  issuedOn: z.string(),
  dueOn: z.string(),
  client: z.object({ id: z.number().int(), name: z.string(), stateCode: z.string().nullable() }),
  seller: billingSettings.omit({ invoicePrefix: true }),
  plan: z.object({ planType: z.enum(PLAN_TYPES), planId: z.string() }).nullable(),
  lines: z.array(line),
  subtotalPaise: z.number().int(),
  discountPaise: z.number().int(),
  taxablePaise: z.number().int(),
  taxRateBp: z.number().int(),
  cgstPaise: z.number().int(),
  sgstPaise: z.number().int(),
  igstPaise: z.number().int(),
  roundOffPaise: z.number().int(),
  totalPaise: z.number().int(),
  notes: z.string().nullable(),
  /** The UPI payment link (QR and button) while the invoice can be paid; null once paid or void. */
  upiLink: z.string().nullable(),
  /** A gateway payment link, when the clinic has one configured. */
  payOnlineUrl: z.string().nullable(),
  /** The latest claim against it, if any. */
  claim: z
    .object({ utr: z.string(), state: z.enum(['pending', 'confirmed', 'rejected']), reason: z.string().nullable(), claimedAt: z.date() })
    .nullable(),
  paidAt: z.date().nullable(),
  paidVia: z.enum(PAID_VIA).nullable(),
  paymentReference: z.string().nullable(),
  subscriptionId: z.number().int().nullable(),
  voidReason: z.string().nullable(),
  createdAt: z.date(),
  /** Set when a repeat of the same clientRequestId or claim found the first: nothing new was stored. */
  repeated: z.boolean().optional(),
});
export type Invoice = z.infer<typeof invoice>;

/**
 * invoice.events: 'ready', then a signal per change to an invoice the viewer
 * may see (a client's own; every one for a dietitian), ids only: the page
 * reloads. Not resumable: a reconnecting page reloads on 'ready'.
 */
export type InvoiceEvent = { kind: 'ready' } | { kind: 'changed'; invoiceId: number };

export const invoicePage = z.object({
  items: z.array(invoice),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const pdfLinks = z.object({
  invoiceUrl: z.string(),
  /** Only once paid. */
  receiptUrl: z.string().nullable(),
  expiresAt: z.date(),
});

/** The plan a payment would start (null: the invoice has no plan). */
export const planOnPayment = z.object({ planName: z.string(), startDate: z.string(), endDate: z.string() }).nullable();

export const paymentsSummary = z.object({
  counts: z.record(z.enum([...INVOICE_STATUSES, 'overdue']), z.number().int()),
  collectedThisMonthPaise: z.number().int(),
  outstandingPaise: z.number().int(),
  claimedWaiting: z.number().int(),
});

/** The console's CSV export: one calendar range of issue dates. */
export const exportInput = z.object({
  from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'From must be a date YYYY-MM-DD'),
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'To must be a date YYYY-MM-DD'),
});

/** The UPI link (NPCI's deep-link form) for an amount to a payee, referencing the invoice number. */
export function upiPaymentLink(opts: { vpa: string; payeeName: string; totalPaise: number; invoiceNumber: string }): string {
  const rupees = `${Math.floor(opts.totalPaise / 100)}.${String(opts.totalPaise % 100).padStart(2, '0')}`;
  const params = [
    ['pa', opts.vpa],
    ['pn', opts.payeeName],
    ['am', rupees],
    ['cu', 'INR'],
    ['tn', `Invoice ${opts.invoiceNumber}`],
    ['tr', opts.invoiceNumber],
  ];
  return `upi://pay?${params.map(([k, v]) => `${k}=${encodeURIComponent(v!)}`).join('&')}`;
}

/** The financial year (April–March, in India) a day falls in: '2026-11-26' → '26-27'. */
export function financialYearOf(day: string): string {
  const [y, m] = day.split('-').map(Number) as [number, number];
  const start = m >= 4 ? y : y - 1;
  return `${String(start % 100).padStart(2, '0')}-${String((start + 1) % 100).padStart(2, '0')}`;
}

/** 'PSN/26-27/0001': at most 4 + 1 + 5 + 1 + 5 = 16 characters. */
export const MAX_INVOICE_SEQ = 99_999;
export const invoiceNumber = (prefix: string, financialYear: string, seq: number) =>
  `${prefix}/${financialYear}/${String(seq).padStart(4, '0')}`;

/** The states list, for the forms (the browser imports schema modules only). */
export { GST_STATES, stateName } from './states.js';
