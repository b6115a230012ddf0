import { TRPCClientError } from '@trpc/client';

/** The server's message for any failed call (toasts carry it). */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (error instanceof TRPCClientError) return error.message || fallback;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/** Field errors from a failed tRPC call, as { field: [messages] }. */
export function fieldErrors(error: unknown): Record<string, string[]> {
  if (error instanceof TRPCClientError) {
    const data = error.data as { fieldErrors?: Record<string, string[]> | null } | undefined;
    return data?.fieldErrors ?? {};
  }
  return {};
}
