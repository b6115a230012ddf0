import { adminProcedure, router } from '../../trpc/init.js';
import { byId, messageResult } from '../common.js';
import { bookingDetail } from '../../consultation/schema.js';
import * as service from '../../consultation/service.js';
import { bookingPage, listBookingsInput, updateBookingInput } from './schema.js';

export const bookingsRouter = router({
  list: adminProcedure
    .input(listBookingsInput)
    .output(bookingPage)
    .query(({ ctx, input }) => service.listBookings(ctx.deps, input)),
  /** The booking with a pre-filled new-client form for "convert". */
  get: adminProcedure
    .input(byId)
    .output(bookingDetail)
    .query(({ ctx, input }) => service.getBooking(ctx.deps, input)),
  update: adminProcedure
    .input(updateBookingInput)
    .output(messageResult)
    .mutation(({ ctx, input }) => service.updateBooking(ctx.deps, ctx.user, input)),
});
