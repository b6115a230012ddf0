import { clientProcedure, router } from '../trpc/init.js';
import { targetsConsoleProcedures } from './targets-console.js';
import { targetsQuery, targetsView } from './targets-schema.js';
import * as service from './targets.js';

/**
 * A client's daily nutrition targets: a client reads their own (without numbers while their
 * dietitian keeps numbers from them), a dietitian any client's; the console's procedures set them.
 */
export const targetsRouter = router({
  get: clientProcedure
    .input(targetsQuery)
    .output(targetsView)
    .query(({ ctx, input }) => service.getTargets(ctx.deps.db, ctx.user, input.clientId)),
  ...targetsConsoleProcedures,
});
