import { badRequest, issueMessage, zodFieldErrors } from '../errors.js';
import type { NotifyDeps } from './notify.js';

/** What every payments use case shares: its dependencies, the words of its common refusals, and input parsing. */

export type PaymentDeps = NotifyDeps & { clock: () => Date };

export const INVOICE_MISSING = 'That invoice does not exist.';
export const SETTINGS_MISSING = 'Set the clinic’s billing details (Payments → Billing details) before issuing invoices.';
export const UTR_TAKEN = 'This UTR has already been used for another payment. Check the 12 digits in your UPI app.';
export const PAID_CANNOT_CHANGE = 'This invoice is paid: a paid invoice cannot change.';

export const parse = <T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: import('zod').ZodError } },
  input: unknown,
): T => {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw badRequest(issueMessage(parsed.error.issues[0]!), zodFieldErrors(parsed.error));
  return parsed.data;
};
