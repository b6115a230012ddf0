import { z } from 'zod';
import { adminProcedure, router } from '../trpc/init.js';
import { messageResult } from '../validation.js';
import { invoicesCsv } from './csv.js';
import { recordPayment } from './record-payment.js';
import {
  billingSettings,
  billingSettingsInput,
  createInvoiceInput,
  exportInput,
  invoice,
  invoiceIdInput,
  paymentsSummary,
  planOnPayment,
  recordPaymentInput,
  rejectInput,
  voidInput,
} from './schema.js';
import * as service from './service.js';

/** What an action on an invoice answers: what it did, and the invoice now. */
const changed = z.object({ message: z.string(), invoice });

/**
 * The console's payments: issuing an invoice, confirming or rejecting a
 * client's claim, recording cash or a transfer, voiding; billing details,
 * the figures and the accountant's CSV. Clients read invoices through router.ts.
 */
export const paymentsConsoleRouter = router({
  issue: adminProcedure
    .input(createInvoiceInput)
    .output(invoice)
    .mutation(({ ctx, input }) => service.issueInvoice(ctx.deps, ctx.user, input)),
  confirm: adminProcedure
    .input(invoiceIdInput)
    .output(changed)
    .mutation(({ ctx, input }) => service.confirmPayment(ctx.deps, ctx.user, input)),
  reject: adminProcedure
    .input(rejectInput)
    .output(changed)
    .mutation(({ ctx, input }) => service.rejectPayment(ctx.deps, ctx.user, input)),
  /** Cash or a bank transfer a dietitian received: pays the invoice whole, like a confirmed claim. Repeat-safe by clientRequestId. */
  recordPayment: adminProcedure
    .input(recordPaymentInput)
    .output(changed)
    .mutation(({ ctx, input }) => recordPayment(ctx.deps, ctx.user, input)),
  void: adminProcedure
    .input(voidInput)
    .output(changed)
    .mutation(({ ctx, input }) => service.voidInvoice(ctx.deps, ctx.user, input)),
  settings: adminProcedure.output(billingSettings.nullable()).query(({ ctx }) => service.getBillingSettings(ctx.deps.db)),
  saveSettings: adminProcedure
    .input(billingSettingsInput)
    .output(messageResult)
    .mutation(({ ctx, input }) => service.saveBillingSettings(ctx.deps, ctx.user, input)),
  /** The plan paying this invoice now would start, and when: the console says it before Confirm or Record a payment. */
  planOnPayment: adminProcedure
    .input(invoiceIdInput)
    .output(planOnPayment)
    .query(({ ctx, input }) => service.planOnPayment(ctx.deps.db, input.id, ctx.deps.clock())),
  summary: adminProcedure.output(paymentsSummary).query(({ ctx }) => service.paymentsSummary(ctx.deps.db, ctx.deps.clock())),
  exportCsv: adminProcedure
    .input(exportInput)
    .output(z.object({ filename: z.string(), csv: z.string(), rows: z.number().int() }))
    .query(async ({ ctx, input }) => {
      const { csv, rows } = await invoicesCsv(ctx.deps.db, input.from, input.to);
      return { filename: `invoices-${input.from}-to-${input.to}.csv`, csv, rows };
    }),
});
