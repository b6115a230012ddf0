import { z } from 'zod';
import { pageInput, pageOf, plainText } from '../../validation.js';

/** Mails the app sent or queued (the outbox is the delivery when there is no SMTP). zod only. */
export const OUTBOX_STATUSES = ['queued', 'sent', 'failed', 'logged'] as const;
export const OUTBOX_STATUS_LABELS: Record<(typeof OUTBOX_STATUSES)[number], string> = {
  queued: 'Queued',
  sent: 'Sent',
  failed: 'Failed',
  logged: 'Kept (no SMTP)',
};

export const listOutboxInput = pageInput.extend({
  /** Exact recipient address (case does not matter). */
  to: z.string().trim().toLowerCase().max(254, 'to must be at most 254 characters').pipe(plainText('to')).optional(),
});

export const outboxMail = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  status: z.enum(OUTBOX_STATUSES),
  error: z.string().nullable(),
  createdAt: z.date(),
  sentAt: z.date().nullable(),
});
export const outboxPage = pageOf(outboxMail);
