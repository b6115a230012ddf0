import { z } from 'zod';
import { liveSubscriber } from '../trpc/context.js';
import { adminProcedure, clientProcedure, router } from '../trpc/init.js';
import { journalStream } from './events.js';
import {
  commentInput,
  createMealInput,
  dayInput,
  eventsInput,
  journalDay,
  listMealsInput,
  markInput,
  mealComment,
  mealEntry,
  mealIdInput,
  mealList,
  savedMealEntry,
  updateMealInput,
  waterDay,
  waterInput,
  waterQuery,
} from './schema.js';
import * as service from './service.js';

/**
 * The meal journal and water (issue 25), for a client and the dietitians: a
 * client reaches only their own journal (403 for another's); a dietitian names
 * the client. Clients write entries and water; dietitians mark entries; both
 * comment. Live changes ride the realtime channel, fed by the `journal` NOTIFY.
 */
export const journalRouter = router({
  create: clientProcedure
    .input(createMealInput)
    .output(savedMealEntry)
    .mutation(({ ctx, input }) => service.createMeal(ctx.deps, ctx.user, input, ctx.deps.clock())),
  list: clientProcedure
    .input(listMealsInput)
    .output(mealList)
    .query(({ ctx, input }) => service.listMeals(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
  day: clientProcedure
    .input(dayInput)
    .output(journalDay)
    .query(({ ctx, input }) => service.journalDay(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
  update: clientProcedure
    .input(updateMealInput)
    .output(mealEntry)
    .mutation(({ ctx, input }) => service.updateMeal(ctx.deps, ctx.user, input, ctx.deps.clock())),
  remove: clientProcedure
    .input(mealIdInput)
    .output(z.object({ id: z.number().int(), message: z.string() }))
    .mutation(({ ctx, input }) => service.deleteMeal(ctx.deps, ctx.user, input.id, ctx.deps.clock())),
  comment: clientProcedure
    .input(commentInput)
    .output(mealComment.extend({ repeated: z.boolean() }))
    .mutation(({ ctx, input }) => service.addComment(ctx.deps, ctx.user, input, ctx.deps.clock())),
  /** A dietitian's mark on an entry: looks good, let's talk, or none. */
  mark: adminProcedure
    .input(markInput)
    .output(mealEntry)
    .mutation(({ ctx, input }) => service.markEntry(ctx.deps, ctx.user, input, ctx.deps.clock())),
  water: clientProcedure
    .input(waterQuery)
    .output(waterDay)
    .query(({ ctx, input }) => service.getWater(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
  setWater: clientProcedure
    .input(waterInput)
    .output(waterDay)
    .mutation(({ ctx, input }) => service.setWater(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
  /** One client's journal live: 'ready', then 'changed' (with the day) for every entry, comment or water change. */
  events: clientProcedure.input(eventsInput).subscription(async function* ({ ctx, input, signal }) {
    const viewer = await service.journalViewer(ctx.deps.db, ctx.user, input.clientId);
    yield* ctx.deps.journalLive.open(journalStream, { viewer, ...liveSubscriber(ctx, signal) });
  }),
});
