import { z } from 'zod';

/** A country of the ISO 3166-1 list; `id` is its numeric code (India = 356). */
export const country = z.object({
  id: z.number().int(),
  name: z.string(),
});

export type Country = z.infer<typeof country>;

/** The list never changes while the server runs: clients and proxies may keep it this long. */
export const COUNTRIES_MAX_AGE_SECONDS = 86_400;
