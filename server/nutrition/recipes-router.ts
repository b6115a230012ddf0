import { clientProcedure, router } from '../trpc/init.js';
import { recipesConsoleProcedures } from './recipes-console.js';
import { recipeIdInput, recipeView } from './recipes-schema.js';
import * as service from './recipes.js';

/**
 * Recipes: anyone signed in reads one with its ingredients, per-100 g and per-serving values (they
 * are listed and searched with the foods); the console's procedures add and change them.
 */
export const recipesRouter = router({
  get: clientProcedure
    .input(recipeIdInput)
    .output(recipeView)
    .query(({ ctx, input }) => service.getRecipe(ctx.deps.db, input.id)),
  ...recipesConsoleProcedures,
});
