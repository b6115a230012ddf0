import { z } from 'zod';
import { ROLE } from '../auth/roles.js';
import { liveSubscriber } from '../trpc/context.js';
import { adminProcedure, clientProcedure, router } from '../trpc/init.js';
import { invoiceStream } from './events.js';
import { invoicePdfLinks } from './documents.js';
import {
  claimInput,
  createInvoiceInput,
  invoice,
  invoiceIdInput,
  invoicePage,
  listInvoicesInput,
  recordPaymentInput,
  pdfLinks,
  rejectInput,
  voidInput,
} from './schema.js';
import { recordPayment } from './record-payment.js';
import * as service from './service.js';

const changed = z.object({ message: z.string(), invoice });

/** Invoices: dietitians issue, confirm, reject and void; clients see their own and claim payments. */
export const invoiceRouter = router({
  create: adminProcedure
    .input(createInvoiceInput)
    .output(invoice)
    .mutation(({ ctx, input }) => service.issueInvoice(ctx.deps, ctx.user, input)),
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
