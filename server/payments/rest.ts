import { z } from 'zod';
import { defineRoutes, untrusted } from '../rest/route.js';
import { handleRazorpayWebhook, webhookEvent, webhookHandled } from './webhook.js';
import {
  claimForm,
  createInvoiceInput,
  invoice,
  invoicePage,
  listInvoicesInput,
  pdfLinks,
  reasonForm,
  recordPaymentBody,
} from './schema.js';

const idParams = z.object({ id: z.string().describe('The invoice id') });
const withId = (params: Record<string, string>, body: unknown) => ({ ...(body as object), id: params.id });
const PAID_409 = 'The invoice cannot change this way now (paid invoices never change; no claim to decide; already void)';

export const invoiceRoutes = defineRoutes([
  {
    method: 'post',
    path: '/invoices',
    summary:
      'Issue an invoice to a client (dietitian): a catalogue plan and/or custom lines in paise, an optional discount. Totals, GST and the number are made by the server. 201 for a new invoice',
    tag: 'Payments',
    auth: 'required',
    request: { body: createInvoiceInput },
    response: invoice,
    successStatus: 201,
    repeatAnswer:
      'The clientRequestId was sent before: the first invoice, with repeated: true; nothing new is stored and no number is used',
    errors: { 404: 'The client does not exist', 409: 'The clinic’s billing details are not set yet' },
    handle: async ({ caller, body }) => {
      const made = await caller.admin.payments.issue(untrusted(body));
      return made.repeated
        ? { status: 200, message: `Invoice ${made.number} was issued already.`, data: made }
        : { status: 201, message: `Invoice ${made.number} issued.`, data: made };
    },
  },
  {
    method: 'get',
    path: '/invoices',
    summary: 'Invoices, newest first: a client’s own; every client’s for a dietitian (filter by clientId and status)',
    tag: 'Payments',
    auth: 'required',
    request: { query: listInvoicesInput },
    response: invoicePage,
    handle: async ({ caller, query }) => ({ message: 'Invoices loaded', data: await caller.invoice.list(untrusted(query)) }),
  },
  {
    method: 'get',
    path: '/invoices/:id',
    summary: 'One invoice with its UPI payment link and latest claim (403 for another client’s invoice)',
    tag: 'Payments',
    auth: 'required',
    request: { params: idParams },
    response: invoice,
    handle: async ({ caller, params }) => ({ message: 'Invoice loaded', data: await caller.invoice.get(untrusted({ id: params.id })) }),
  },
  {
    method: 'post',
    path: '/invoices/:id/payment-claim',
    summary: 'The client says they paid by UPI, with the 12-digit UTR from their UPI app. 201 for a new claim',
    tag: 'Payments',
    auth: 'required',
    request: { params: idParams, body: claimForm },
    response: invoice,
    successStatus: 201,
    repeatAnswer: 'This UTR was already claimed for this invoice: the invoice as it stands, with repeated: true',
    errors: { 409: 'The UTR was used for another payment, or the invoice is paid, void or already claimed' },
    handle: async ({ caller, params, body }) => {
      const claimed = await caller.invoice.claim(untrusted(withId(params, body)));
      return claimed.repeated
        ? { status: 200, message: 'This payment was claimed already.', data: claimed }
        : { status: 201, message: 'Thank you! Your dietitian will confirm the payment soon.', data: claimed };
    },
  },
  {
    method: 'post',
    path: '/invoices/:id/confirm',
    summary: 'Confirm a claimed payment (dietitian): the invoice is paid and its plan starts or extends, in one transaction',
    tag: 'Payments',
    auth: 'required',
    request: { params: idParams },
    response: invoice,
    errors: { 409: PAID_409 },
    handle: async ({ caller, params }) => {
      const { message, invoice: data } = await caller.admin.payments.confirm(untrusted({ id: params.id }));
      return { message, data };
    },
  },
  {
    method: 'post',
    path: '/invoices/:id/payments',
    summary:
      'Record a payment received outside UPI claims and the gateway (dietitian): cash or a bank transfer, for the invoice’s whole total, with the day received (not in the future) and, for a bank transfer, its reference. The invoice is paid and its plan starts or extends, as when a claim is confirmed. 201 for a new payment',
    tag: 'Payments',
    auth: 'required',
    request: { params: idParams, body: recordPaymentBody },
    response: invoice,
    successStatus: 201,
    repeatAnswer: 'The clientRequestId was sent before: the invoice as that payment left it, with repeated: true; nothing new is stored',
    errors: {
      404: 'The invoice does not exist',
      409: 'The invoice is paid already or void',
      422: 'The clientRequestId was used before with other details',
    },
    handle: async ({ caller, params, body }) => {
      const { message, invoice: data } = await caller.admin.payments.recordPayment(untrusted(withId(params, body)));
      return data.repeated ? { status: 200, message, data } : { status: 201, message, data };
    },
  },
  {
    method: 'post',
    path: '/invoices/:id/reject',
    summary: 'Reject a claimed payment with a reason the client reads (dietitian)',
    tag: 'Payments',
    auth: 'required',
    request: { params: idParams, body: reasonForm },
    response: invoice,
    errors: { 409: PAID_409 },
    handle: async ({ caller, params, body }) => {
      const { message, invoice: data } = await caller.admin.payments.reject(untrusted(withId(params, body)));
      return { message, data };
    },
  },
  {
    method: 'post',
    path: '/invoices/:id/void',
    summary: 'Cancel an unpaid invoice (dietitian); it keeps its number, shown as void',
    tag: 'Payments',
    auth: 'required',
    request: { params: idParams, body: reasonForm },
    response: invoice,
    errors: { 409: PAID_409 },
    handle: async ({ caller, params, body }) => {
      const { message, invoice: data } = await caller.admin.payments.void(untrusted(withId(params, body)));
      return { message, data };
    },
  },
  {
    method: 'get',
    path: '/invoices/:id/pdf',
    summary:
      'Signed links (about 15 minutes, no token needed) to the invoice PDF and, once paid, the receipt PDF. The links are /api/invoice-files/… binary downloads',
    tag: 'Payments',
    auth: 'required',
    request: { params: idParams },
    response: pdfLinks,
    handle: async ({ caller, params }) => ({
      message: 'Download links ready',
      data: await caller.invoice.pdfLinks(untrusted({ id: params.id })),
    }),
  },
  {
    method: 'post',
    path: '/webhooks/razorpay',
    summary:
      'Razorpay’s webhook (only when RAZORPAY_* are set): X-Razorpay-Signature must be the HMAC-SHA256 (hex) of the raw body with the webhook secret. payment_link.paid (or payment.captured naming the invoice in its notes) marks the invoice paid and starts its plan, once per event id (x-razorpay-event-id)',
    tag: 'Payments',
    auth: 'none',
    request: { raw: true, body: webhookEvent },
    response: webhookHandled,
    errors: { 401: 'The signature is missing or does not match the body', 404: 'Online payments are not configured on this server' },
    handle: async ({ ctx, c, rawBody }) => {
      const { handled, message } = await handleRazorpayWebhook(ctx.deps, {
        rawBody: rawBody ?? new Uint8Array(),
        signature: c.req.header('x-razorpay-signature'),
        eventId: c.req.header('x-razorpay-event-id'),
      });
      return { message, data: { handled } };
    },
  },
]);
