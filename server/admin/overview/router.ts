import { adminProcedure, router } from '../../trpc/init.js';
import { overview } from './schema.js';
import { getOverview } from './service.js';

export const overviewRouter = router({
  get: adminProcedure.output(overview).query(({ ctx }) => getOverview(ctx.deps.db)),
});
