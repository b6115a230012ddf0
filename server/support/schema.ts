import { z } from 'zod';
import { emailAddress, idField, optionalText, pageInput, pageOf, requiredText } from '../validation.js';

export const SUPPORT_NAME_MAX = 100;
/** The longest address the mail standards allow. */
export const SUPPORT_EMAIL_MAX = 254;
export const SUPPORT_MESSAGE_MAX = 5000;

const message = requiredText('Message is required', SUPPORT_MESSAGE_MAX, { multiline: true });

/**
 * Contact Us for a visitor: who they are and what they need. The team answers by mail, so the
 * address must be one a reply can reach (the spec's forms apply no format rule; this one must).
 */
export const supportFormSignedOut = z.object({
  name: requiredText('Name is required', SUPPORT_NAME_MAX),
  email: emailAddress(SUPPORT_EMAIL_MAX),
  message,
});

/** Contact Us when signed in: name and email come from the account, so only the message is asked. */
export const supportFormSignedIn = z.object({ message });

/**
 * What the call accepts. Whether name and email are required depends on who
 * calls, so the procedure first checks the raw input against the matching
 * form schema above (all messages at once, in form order).
 */
export const supportRequestInput = z.object({
  name: optionalText('Name', SUPPORT_NAME_MAX).transform((v) => v ?? undefined),
  email: optionalText('Email', SUPPORT_EMAIL_MAX).transform((v) => v ?? undefined),
  message,
});

export const supportRequestResult = z.object({ message: z.string() });

export const SUPPORT_REQUEST_RECEIVED = 'Thanks for reaching out! Our team will reply within one working day.';

export type SupportFormSignedOut = z.infer<typeof supportFormSignedOut>;
export type SupportFormSignedIn = z.infer<typeof supportFormSignedIn>;
export type SupportRequestInput = z.infer<typeof supportRequestInput>;

/* The support inbox in the console. */

export const SUPPORT_STATUSES = ['open', 'answered'] as const;
export const REPLY_MAX = 5000;

export const listSupportInput = pageInput.extend({ status: z.enum(['all', ...SUPPORT_STATUSES]).default('open') });

export const replyForm = z.object({ reply: requiredText('Reply is required', REPLY_MAX, { multiline: true }) });
export const replySupportInput = replyForm.extend({ id: idField('id') });
export const setSupportStatusInput = z.object({
  id: idField('id'),
  status: z.enum(SUPPORT_STATUSES, { error: 'Status must be open or answered' }),
});

export const supportRequest = z.object({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  status: z.enum(SUPPORT_STATUSES),
  reply: z.string().nullable(),
  answeredAt: z.date().nullable(),
  answeredBy: z.string().nullable(),
  createdAt: z.date(),
});
export const supportPage = pageOf(supportRequest);
