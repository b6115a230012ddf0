import { z } from 'zod';
import { adminProcedure, router } from '../trpc/init.js';
import {
  appointmentView,
  availabilityInput,
  availabilityView,
  calendarInput,
  calendarView,
  consoleCancelInput,
  consoleMoveInput,
  markInput,
  saveAvailabilityInput,
} from './schema.js';
import * as service from './service.js';

/** The console's side: every dietitian's calendar, today's list, marking, moving and cancelling, availability. */
export const appointmentsConsoleRouter = router({
  calendar: adminProcedure
    .input(calendarInput)
    .output(calendarView)
    .query(({ ctx, input }) => service.calendar(ctx.deps, ctx.user, input)),
  today: adminProcedure
    .input(z.void())
    .output(z.object({ day: z.string(), appointments: z.array(appointmentView) }))
    .query(({ ctx }) => service.today(ctx.deps, ctx.user)),
  mark: adminProcedure
    .input(markInput)
    .output(appointmentView)
    .mutation(({ ctx, input }) => service.mark(ctx.deps, ctx.user, input)),
  move: adminProcedure
    .input(consoleMoveInput)
    .output(appointmentView)
    .mutation(({ ctx, input }) => service.reschedule(ctx.deps, ctx.user, input)),
  cancel: adminProcedure
    .input(consoleCancelInput)
    .output(appointmentView)
    .mutation(({ ctx, input }) => service.cancel(ctx.deps, ctx.user, { id: input.id, reason: input.message })),
  availability: adminProcedure
    .input(availabilityInput)
    .output(availabilityView)
    .query(({ ctx, input }) => service.availabilityOf(ctx.deps.db, ctx.user, input.dietitianId)),
  saveAvailability: adminProcedure
    .input(saveAvailabilityInput)
    .output(availabilityView)
    .mutation(({ ctx, input }) => service.saveAvailability(ctx.deps.db, ctx.user, input)),
});
