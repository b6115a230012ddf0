import { z } from 'zod';
import { appointmentInput, callSettings, callSettingsInput, clientNotesInput, saveNotesInput, sessionNote } from '../../calls/schema.js';
import * as calls from '../../calls/service.js';
import { adminProcedure, router } from '../../trpc/init.js';

/**
 * The dietitian's side of calls (issue 26): private session notes on the
 * client's record (never shown to the client) and the fallback meeting link
 * the call page offers.
 */
export const callsAdminRouter = router({
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
});
