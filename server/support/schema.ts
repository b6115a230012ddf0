import { z } from 'zod';
import { emailAddress, optionalText, requiredText } from '../validation.js';

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
