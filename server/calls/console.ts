import { z } from 'zod';
import { publicBaseUrl } from '../http/public-url.js';
import {
  appointmentInput,
  callSettings,
  callSettingsInput,
  clientNotesInput,
  guestLinkInfo,
  saveNotesInput,
  sessionNote,
  waitingCall,
} from './schema.js';
import * as calls from './service.js';
import { seatsStream } from './streams.js';
import { liveSubscriber } from '../trpc/context.js';
import { adminProcedure, router } from '../trpc/init.js';

/**
 * The dietitian's side of calls: private session notes on the client's record
 * (never shown to the client), the fallback meeting link the call page offers,
 * a visitor's guest link, and who is waiting in a call.
 */
export const callsConsoleRouter = router({
  note: adminProcedure
    .input(appointmentInput)
    .output(sessionNote.nullable())
    .query(({ ctx, input }) => calls.sessionNote(ctx.deps.db, ctx.user, input.appointmentId)),
  saveNote: adminProcedure
    .input(saveNotesInput)
    .output(sessionNote)
    .mutation(({ ctx, input }) => calls.saveSessionNote(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
  clientNotes: adminProcedure
    .input(clientNotesInput)
    .output(z.array(sessionNote))
    .query(({ ctx, input }) => calls.clientSessionNotes(ctx.deps.db, input.clientId)),
  settings: adminProcedure
    .input(z.void())
    .output(callSettings)
    .query(({ ctx }) => calls.callSettings(ctx.deps.db, ctx.user)),
  saveSettings: adminProcedure
    .input(callSettingsInput)
    .output(callSettings)
    .mutation(({ ctx, input }) => calls.saveCallSettings(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
  /** A visitor's session: its current guest link, to copy and send (the booking mail carries one too). */
  guestLink: adminProcedure
    .input(appointmentInput)
    .output(guestLinkInfo)
    .query(({ ctx, input }) =>
      calls.guestLinkFor({ ...ctx.deps, baseUrl: publicBaseUrl(ctx.deps) }, ctx.user, input.appointmentId, ctx.deps.clock()),
    ),
  /** Revokes the session's guest links made so far (a guest in the call is put out at once); answers the new link. */
  revokeGuestLink: adminProcedure
    .input(appointmentInput)
    .output(guestLinkInfo)
    .mutation(({ ctx, input }) =>
      calls.revokeGuestLinks({ ...ctx.deps, baseUrl: publicBaseUrl(ctx.deps) }, ctx.user, input.appointmentId, ctx.deps.clock()),
    ),
  /** Who is in a call now that no dietitian has joined, longest waiting first. */
  waiting: adminProcedure
    .input(z.void())
    .output(z.array(waitingCall))
    .query(({ ctx }) => calls.waitingCalls(ctx.deps.db, ctx.deps.clock())),
  /** A hint each time someone comes into or leaves a call: the console loads `waiting` again. */
  seats: adminProcedure.subscription(({ ctx, signal }) =>
    ctx.deps.callsLive.open(seatsStream, { viewer: {}, ...liveSubscriber(ctx, signal) }),
  ),
});
