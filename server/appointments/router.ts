import { z } from 'zod';
import { ROLE } from '../auth/roles.js';
import { liveSubscriber } from '../trpc/context.js';
import { clientProcedure, publicProcedure, router } from '../trpc/init.js';
import { appointmentStream } from './events.js';
import {
  appointmentIdInput,
  appointmentView,
  bookedAppointment,
  bookInput,
  cancelInput,
  listInput,
  myAppointmentsView,
  rescheduleInput,
  slotsInput,
  slotsView,
} from './schema.js';
import * as service from './service.js';

/** Appointments: slots for anyone (free consultations) or a client (follow-ups); a client's own bookings. */
export const appointmentsRouter = router({
  slots: publicProcedure
    .input(slotsInput)
    .output(slotsView)
    .query(({ ctx, input }) => service.listSlots(ctx.deps, ctx.user ?? null, input)),
  book: clientProcedure
    .input(bookInput)
    .output(bookedAppointment)
    .mutation(({ ctx, input }) => service.book(ctx.deps, ctx.user, input)),
  list: clientProcedure
    .input(listInput)
    .output(myAppointmentsView)
    .query(({ ctx, input }) => service.myAppointments(ctx.deps, ctx.user, input)),
  reschedule: clientProcedure
    .input(rescheduleInput)
    .output(appointmentView)
    .mutation(({ ctx, input }) => service.reschedule(ctx.deps, ctx.user, input)),
  cancel: clientProcedure
    .input(cancelInput)
    .output(appointmentView)
    .mutation(({ ctx, input }) => service.cancel(ctx.deps, ctx.user, input)),
  /** The appointment's iCalendar file (a cancellation once it is cancelled). */
  ics: clientProcedure
    .input(appointmentIdInput)
    .output(z.object({ filename: z.string(), content: z.string() }))
    .query(async ({ ctx, input }) => ({
      filename: `appointment-${input.id}.ics`,
      content: await service.icsOf(ctx.deps, ctx.user, input.id),
    })),
  /**
   * Changes live: a client hears of her own appointments, a dietitian of every one ('changed', ids only); anyone
   * else only that the free times changed ('slots'). Screens reload on each, and on 'ready'. Not resumable.
   */
  events: clientProcedure.input(z.void()).subscription(async function* ({ ctx, signal }) {
    const viewer = { userId: ctx.user.id, seesAll: ctx.user.role === ROLE.admin };
    yield* ctx.deps.appointmentsLive.open(appointmentStream, { viewer, ...liveSubscriber(ctx, signal) });
  }),
});
