import { z } from 'zod';
import { idField } from '../../validation.js';

/** The console's first screen. zod only. */
export const VISIT_DAYS = 30;
/** A lab report a client added counts as new on the Overview for this many days. */
export const LAB_REPORTS_NEW_DAYS = 7;

export const overview = z.object({
  /** Clients on a running plan whose latest check-in has no reply yet. */
  checkInsAwaitingReply: z.number().int(),
  /** Clients on a running plan whose check-in is overdue. */
  overdueFollowUps: z.number().int(),
  /** Messages from clients this dietitian has not read (her inbox's count). */
  unreadMessages: z.number().int(),
  /** Invoices a client says she paid, waiting for a dietitian to confirm or reject the payment. */
  claimsToConfirm: z.number().int(),
  /** Lab reports clients added in the last LAB_REPORTS_NEW_DAYS days; the newest one's client, to open it. */
  newLabReports: z.object({ count: z.number().int(), newestClientId: z.number().int().nullable() }),
  /** Clients on a running plan who logged no meal in the journal's last 7 days. */
  clientsWithoutMeals: z.number().int(),
  newBookings: z.number().int(),
  openSupportRequests: z.number().int(),
  activeSubscriptions: z.number().int(),
  activeClients: z.number().int(),
  rating: z.object({ average: z.number().nullable(), count: z.number().int() }),
  /** The last VISIT_DAYS days, oldest first, every day present (0 when nobody came). */
  visits: z.array(z.object({ day: z.string(), visits: z.number().int(), visitors: z.number().int() })),
});
export type Overview = z.infer<typeof overview>;

/** How the service itself is doing, for the Overview's operational health panel. */
export const FAILED_MAILS_SHOWN = 10;
export const FAILED_PUSHES_SHOWN = 5;
export const operationalHealth = z.object({
  /** Distinct signed-in clients with the live feed open on this server right now. */
  liveClients: z.number().int(),
  /** When this server last logged an error since it started; null when none. */
  lastErrorAt: z.date().nullable(),
  failedMailCount: z.number().int(),
  /** The newest failed mails (at most FAILED_MAILS_SHOWN). */
  failedMails: z.array(
    z.object({ id: z.number().int(), to: z.string(), subject: z.string(), error: z.string().nullable(), createdAt: z.date() }),
  ),
  /** Push notifications that could not be delivered after every retry (not the devices that unsubscribed). */
  failedPushCount: z.number().int(),
  /** The newest (at most FAILED_PUSHES_SHOWN): which push service, and why. */
  failedPushes: z.array(
    z.object({
      id: z.number().int(),
      service: z.string(),
      error: z.string().nullable(),
      attempts: z.number().int(),
      failedAt: z.date().nullable(),
    }),
  ),
});
export type OperationalHealth = z.infer<typeof operationalHealth>;

export const retryMailInput = z.object({ id: idField('id') });
export const retriedMail = z.object({ id: z.number().int(), status: z.enum(['queued', 'sent', 'failed', 'logged']) });

/** What admin.overview.events sends: 'ready', then 'changed' when a count may have moved (reload), or a client's new lab report. */
export type OverviewEvent = { kind: 'ready' } | { kind: 'changed' } | { kind: 'lab-report'; clientId: number };
