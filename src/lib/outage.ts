import { TRPCClientError } from '@trpc/client';

/*
 * Apart from connection.ts, which the entry of every page loads (the Reconnecting… notice): only
 * screens with the data layer ask this, and they bring @trpc/client anyway. Public pages without a
 * form then load no tRPC code at all.
 */

/** A failure of the connection or the service (network error, 502, 503, 504), not an answer about the request itself. */
export function isOutage(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return error instanceof TypeError; // fetch's "Failed to fetch"
  const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus;
  if (status === undefined) return !error.data; // no answer at all: the network failed
  return status === 502 || status === 503 || status === 504;
}
