import { publicProcedure, router } from '../trpc/init.js';
import { bookConsultationInput, bookedConsultation } from './schema.js';
import * as service from './service.js';

export const consultationRouter = router({
  book: publicProcedure
    .input(bookConsultationInput)
    .output(bookedConsultation)
    .mutation(({ ctx, input }) => service.bookConsultation(ctx.deps, ctx.meta, input)),
});
