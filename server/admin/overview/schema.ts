import { z } from 'zod';

/** The console's first screen. zod only. */
export const VISIT_DAYS = 30;

export const overview = z.object({
  newBookings: z.number().int(),
  openSupportRequests: z.number().int(),
  activeSubscriptions: z.number().int(),
  activeClients: z.number().int(),
  rating: z.object({ average: z.number().nullable(), count: z.number().int() }),
  /** The last VISIT_DAYS days, oldest first, every day present (0 when nobody came). */
  visits: z.array(z.object({ day: z.string(), visits: z.number().int(), visitors: z.number().int() })),
});
export type Overview = z.infer<typeof overview>;
