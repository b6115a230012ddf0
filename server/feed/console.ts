import { adminProcedure, router } from '../trpc/init.js';
import { createPostInput, feedItem, removedPost, removePostInput, updatePostInput } from './schema.js';
import * as service from './service.js';

/** The console's feed: writing, editing and removing posts (clients read them through router.ts). */
export const feedConsoleRouter = router({
  create: adminProcedure
    .input(createPostInput)
    .output(feedItem)
    .mutation(({ ctx, input }) => service.createPost(ctx.deps, ctx.user, input)),
  update: adminProcedure
    .input(updatePostInput)
    .output(feedItem)
    .mutation(({ ctx, input }) => service.updatePost(ctx.deps, ctx.user, input)),
  remove: adminProcedure
    .input(removePostInput)
    .output(removedPost)
    .mutation(({ ctx, input }) => service.removePost(ctx.deps, ctx.user, input.id)),
});
