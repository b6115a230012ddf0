import { router } from '../trpc/init.js';

// Placeholder until this domain's procedures land.
export const ratingRouter = router({});
