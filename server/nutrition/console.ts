import { z } from 'zod';
import { adminProcedure } from '../trpc/init.js';
import { archiveFoodInput, consoleListInput, createFoodInput, foodDetail, setPortionsInput, updateFoodInput } from './foods-schema.js';
import * as service from './foods-service.js';
import { foodSummary } from './schema.js';

/** The dietitian's side of the food library: the console's list, and adding, changing and archiving foods (each audited). */
export const foodsConsoleProcedures = {
  /** A query's matches, or the latest edited foods (with the archived ones when asked). */
  list: adminProcedure
    .input(consoleListInput)
    .output(z.array(foodSummary.extend({ archived: z.boolean() })))
    .query(({ ctx, input }) => service.listForConsole(ctx.deps.db, ctx.user, input)),
  create: adminProcedure
    .input(createFoodInput)
    .output(foodDetail)
    .mutation(({ ctx, input }) => service.createFood(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
  update: adminProcedure
    .input(updateFoodInput)
    .output(foodDetail)
    .mutation(({ ctx, input }) => service.updateFood(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
  archive: adminProcedure
    .input(archiveFoodInput)
    .output(foodDetail)
    .mutation(({ ctx, input }) => service.archiveFood(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
  setPortions: adminProcedure
    .input(setPortionsInput)
    .output(foodDetail)
    .mutation(({ ctx, input }) => service.setPortions(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
};
