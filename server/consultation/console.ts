import { adminProcedure, router } from '../trpc/init.js';
import { byId, messageResult } from '../validation.js';
import { bookingDetail, bookingPage, listBookingsInput, updateBookingInput } from './schema.js';
import * as service from './service.js';

/** The console's consultation bookings: the list, one booking, and its status and notes. */
export const bookingsConsoleRouter = router({
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
