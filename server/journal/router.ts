import { z } from 'zod';
import { liveSubscriber } from '../trpc/context.js';
import { clientProcedure, router } from '../trpc/init.js';
import { journalStream } from './events.js';
import {
  commentInput,
  createMealInput,
  dayInput,
  eventsInput,
  journalDay,
  listMealsInput,
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
import { createMeal, deleteMeal, updateMeal } from './meals.js';
import { addComment } from './review.js';
import * as service from './service.js';

/**
 * The meal journal and water, for a client and the dietitians: a
 * client reaches only their own journal (403 for another's); a dietitian names
 * the client. Clients write entries and water; both comment (a dietitian's marks
 * and estimates are in console.ts). Live changes ride the realtime channel, fed by the `journal` NOTIFY.
 */
export const journalRouter = router({
  create: clientProcedure
    .input(createMealInput)
    .output(savedMealEntry)
    .mutation(({ ctx, input }) => createMeal(ctx.deps, ctx.user, input, ctx.deps.clock())),
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
    .mutation(({ ctx, input }) => updateMeal(ctx.deps, ctx.user, input, ctx.deps.clock())),
  remove: clientProcedure
    .input(mealIdInput)
    .output(z.object({ id: z.number().int(), message: z.string() }))
    .mutation(({ ctx, input }) => deleteMeal(ctx.deps, ctx.user, input.id, ctx.deps.clock())),
  comment: clientProcedure
    .input(commentInput)
    .output(mealComment.extend({ repeated: z.boolean() }))
    .mutation(({ ctx, input }) => addComment(ctx.deps, ctx.user, input, ctx.deps.clock())),
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
