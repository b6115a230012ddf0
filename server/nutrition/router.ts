import { z } from 'zod';
import { clientProcedure, router } from '../trpc/init.js';
import { foodsConsoleProcedures } from './console.js';
import { byIdsInput, foodDetail, foodIdInput, recentInput, searchInput } from './foods-schema.js';
import { getFood } from './foods-service.js';
import { foodSummary } from './schema.js';
import { foodsByIds, recentFoods, searchFoods } from './search.js';

/**
 * The food library for everyone signed in (clients log meals with it, dietitians build plans):
 * search by any name, a food with its names and ingredients, foods by id, the person's recent foods.
 * The dietitian's writes are console.ts's.
 */
export const foodsRouter = router({
  search: clientProcedure
    .input(searchInput)
    .output(z.array(foodSummary))
    .query(({ ctx, input }) => searchFoods(ctx.deps.db, ctx.user.id, input.q, input.limit)),
  get: clientProcedure
    .input(foodIdInput)
    .output(foodDetail)
    .query(({ ctx, input }) => getFood(ctx.deps.db, input.id)),
  byIds: clientProcedure
    .input(byIdsInput)
    .output(z.array(foodSummary))
    .query(({ ctx, input }) => foodsByIds(ctx.deps.db, input.ids)),
  recent: clientProcedure
    .input(recentInput)
    .output(z.array(foodSummary))
    .query(({ ctx, input }) => recentFoods(ctx.deps.db, ctx.user.id, input.limit)),
  ...foodsConsoleProcedures,
});
