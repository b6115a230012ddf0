import { toast } from './toast';
import { isHandled } from './auth-client';
import { errorMessage } from './errors';

/**
 * Every failed call shows the server's message. A failure the user was
 * already told about (the session ended) is not repeated, and the same message
 * from several calls at once shows as one toast.
 */
export function toastError(error: unknown) {
  if (isHandled(error)) return;
  const message = errorMessage(error);
  toast.error(message, { id: `error:${message}` });
}
