import { z } from 'zod';
import { ROLE } from '../auth/roles.js';
import { liveSubscriber } from '../trpc/context.js';
import { adminProcedure, clientProcedure, publicProcedure, router } from '../trpc/init.js';
import { appointmentStream } from './events.js';
import {
  appointmentIdInput,
  appointmentView,
  availabilityInput,
  availabilityView,
  bookedAppointment,
  bookInput,
  calendarInput,
  calendarView,
  cancelInput,
  consoleCancelInput,
  consoleMoveInput,
  listInput,
  markInput,
  myAppointmentsView,
  rescheduleInput,
  saveAvailabilityInput,
  slotsInput,
  slotsView,
} from './schema.js';
import * as service from './service.js';

/** Appointments (issue 26): slots for anyone (free consultations) or a client (follow-ups); a client's own bookings. */
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
