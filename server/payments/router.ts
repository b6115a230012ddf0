import { z } from 'zod';
import { ROLE } from '../auth/roles.js';
import { liveSubscriber } from '../trpc/context.js';
import { clientProcedure, router } from '../trpc/init.js';
import { invoiceStream } from './events.js';
import { invoicePdfLinks } from './documents.js';
import { claimInput, invoice, invoiceIdInput, invoicePage, listInvoicesInput, pdfLinks } from './schema.js';
import * as service from './service.js';

/** Invoices as clients see them: their own, a claim of a payment, the PDFs, live changes. Dietitians issue, confirm, reject and void them from the console (console.ts). */
export const invoiceRouter = router({
  list: clientProcedure
    .input(listInvoicesInput)
    .output(invoicePage)
    .query(({ ctx, input }) => service.listInvoices(ctx.deps.db, ctx.user, input, service.serviceDay(ctx.deps.clock()))),
  get: clientProcedure
    .input(invoiceIdInput)
    .output(invoice)
    .query(({ ctx, input }) => service.getInvoice(ctx.deps.db, ctx.user, input.id, service.serviceDay(ctx.deps.clock()))),
  claim: clientProcedure
    .input(claimInput)
    .output(invoice)
    .mutation(({ ctx, input }) => service.claimPayment(ctx.deps, ctx.user, input)),
  /** A signal per change to an invoice the viewer may see (a client's own, every one for a dietitian): the page reloads. Not resumable. */
  events: clientProcedure.input(z.void()).subscription(async function* ({ ctx, signal }) {
    const viewer = { userId: ctx.user.id, seesAll: ctx.user.role === ROLE.admin };
    yield* ctx.deps.invoicesLive.open(invoiceStream, { viewer, ...liveSubscriber(ctx, signal) });
  }),
  pdfLinks: clientProcedure
    .input(invoiceIdInput)
    .output(pdfLinks)
    .query(({ ctx, input }) => invoicePdfLinks(ctx.deps, ctx.user, input.id)),
});
