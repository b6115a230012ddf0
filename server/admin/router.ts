import { router } from '../trpc/init.js';

// Placeholder until the dietitian console's procedures land (issue 5).
export const adminRouter = router({});
