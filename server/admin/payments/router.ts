import { z } from 'zod';
import { adminProcedure, router } from '../../trpc/init.js';
import { invoicesCsv } from '../../payments/csv.js';
import {
  billingSettings,
  billingSettingsInput,
  exportInput,
  invoiceIdInput,
  paymentsSummary,
  planOnPayment,
} from '../../payments/schema.js';
import * as service from '../../payments/service.js';
import { messageResult } from '../common.js';

/** The console's Payments page: billing details, the figures, the accountant's CSV. Invoices themselves are invoice.*. */
export const paymentsRouter = router({
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
