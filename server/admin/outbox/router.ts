import { adminProcedure, router } from '../../trpc/init.js';
import { listOutboxInput, outboxPage } from './schema.js';
import { listOutbox } from '../../mail/service.js';

export const outboxRouter = router({
  list: adminProcedure
    .input(listOutboxInput)
    .output(outboxPage)
    .query(({ ctx, input }) => listOutbox(ctx.deps.db, input)),
});
