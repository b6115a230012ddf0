import { adminProcedure, router } from '../trpc/init.js';
import { estimateMeal, markEntry } from './review.js';
import { estimateInput, markInput, mealEntry } from './schema.js';

/**
 * The console's side of the journal: a dietitian reads a client's journal through the shared
 * `journal.day`/`journal.list` (naming the client) and acts on a meal here.
 */
export const journalConsoleRouter = router({
  /** A dietitian's mark on an entry: looks good, let's talk, or none. */
  mark: adminProcedure
    .input(markInput)
    .output(mealEntry)
    .mutation(({ ctx, input }) => markEntry(ctx.deps, ctx.user, input, ctx.deps.clock())),
  /** The foods a dietitian reads in a client's meal (its photo, its words): they replace the foods it listed; the client sees them live. */
  estimate: adminProcedure
    .input(estimateInput)
    .output(mealEntry)
    .mutation(({ ctx, input }) => estimateMeal(ctx.deps, ctx.user, input, ctx.deps.clock())),
});
