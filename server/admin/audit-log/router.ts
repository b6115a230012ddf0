import { adminProcedure, router } from '../../trpc/init.js';
import { auditPage, listAuditInput } from './schema.js';
import { listAudit } from '../../audit/service.js';

export const auditRouter = router({
  list: adminProcedure
    .input(listAuditInput)
    .output(auditPage)
    .query(({ ctx, input }) => listAudit(ctx.deps.db, input)),
});
