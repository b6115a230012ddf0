import { publicProcedure, router } from '../trpc/init.js';
import { bookConsultationInput, bookedConsultation, confirmedHold, confirmHoldInput } from './schema.js';
import * as service from './service.js';

export const consultationRouter = router({
  book: publicProcedure
    .input(bookConsultationInput)
    .output(bookedConsultation)
    .mutation(({ ctx, input }) => service.bookConsultation(ctx.deps, ctx.meta, input)),
  /** The visitor confirms their held time from the booking mail's link (the page's button; a GET changes nothing). */
  confirmHold: publicProcedure
    .input(confirmHoldInput)
    .output(confirmedHold)
    .mutation(({ ctx, input }) => service.confirmHold(ctx.deps, input)),
});
