import { z } from 'zod';
import { adminProcedure } from '../trpc/init.js';
import { foodIdInput } from './foods-schema.js';
import { createRecipeInput, recipeUse, recipeView, updateRecipeInput } from './recipes-schema.js';
import * as service from './recipes.js';
import { recipesOf } from './recipes-values.js';

/** The dietitian's side of recipes: add and change them (values recomputed, each change audited), and where a food is used. */
export const recipesConsoleProcedures = {
  create: adminProcedure
    .input(createRecipeInput)
    .output(recipeView)
    .mutation(({ ctx, input }) => service.createRecipe(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
  update: adminProcedure
    .input(updateRecipeInput)
    .output(recipeView)
    .mutation(({ ctx, input }) => service.updateRecipe(ctx.deps.db, ctx.user, input, ctx.deps.clock())),
  /** The recipes a food is an ingredient of. */
  usedIn: adminProcedure
    .input(foodIdInput)
    .output(z.array(recipeUse))
    .query(({ ctx, input }) => recipesOf(ctx.deps.db, input.id)),
};
