import { z } from 'zod';
import { adminProcedure } from '../trpc/init.js';
import { personFacts, setTargetsInput, suggestInput, suggestionAnswer, targetsView } from './targets-schema.js';
import * as service from './targets.js';

/** The dietitian's side of a client's targets: set them, and a suggestion from the client's record. */
export const targetsConsoleProcedures = {
  /** Sets the whole set of a client's daily targets and whether the client sees numbers. */
  set: adminProcedure
    .input(setTargetsInput)
    .output(targetsView)
    .mutation(({ ctx, input }) => service.setTargets(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
  /** What the client's record says of age, sex, weight, height and activity (each may be missing). */
  facts: adminProcedure
    .input(z.object({ clientId: suggestInput.shape.clientId }))
    .output(personFacts)
    .query(({ ctx, input }) => service.factsFor(ctx.deps.db, ctx.user, input.clientId, ctx.deps.clock())),
  /** Suggested targets (Mifflin–St Jeor, protein per kg, ICMR–NIN 2020 RDAs) for the dietitian to accept or change. */
  suggest: adminProcedure
    .input(suggestInput)
    .output(suggestionAnswer)
    .query(({ ctx, input }) => service.suggestFor(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
};
