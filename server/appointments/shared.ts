import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Config } from '../env.js';
import type { Mailer } from '../mail/mailer.js';

/** What every appointment use case shares: its dependencies, the default session settings, and the words of its refusals. */

/** `secret` signs a visitor's guest call link in their mails (without it they get the call page's address). */
export type AppointmentDeps = { db: Kysely<Database>; mailer: Mailer; config: Config; clock: () => Date; secret?: string };

export const HOUR_MS = 3_600_000;
export const DEFAULT_SETTINGS = { consultationMinutes: 30, followUpMinutes: 30, bufferMinutes: 10, bookable: true };
/** How many next free slots a 409 offers. */
export const NEXT_SLOTS = 5;

export const APPOINTMENT_MISSING = 'That appointment does not exist.';
export const TAKEN = 'That time was just taken. Please pick another; the next free times are listed.';

export const callPathOf = (id: number) => `/call/${id}`;
