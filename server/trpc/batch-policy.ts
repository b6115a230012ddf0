import type { TRPCRequestInfo } from '@trpc/server/http';
import { AppError } from '../errors.js';
import { isAuthCall } from './batch-rules.js';

export { MAX_BATCH_SIZE } from './batch-rules.js';

export const AUTH_BATCH_MESSAGE = 'Sign-in, password and session calls cannot be batched: send each one as a request of its own.';

/** Called from the HTTP context factory, before any procedure runs (a batch over MAX_BATCH_SIZE is refused by tRPC itself). */
export function refuseBatchedAuthCalls(info: Pick<TRPCRequestInfo, 'isBatchCall' | 'calls'> | undefined): void {
  if (info?.isBatchCall && info.calls.some((call) => isAuthCall(call.path))) throw new AppError('BAD_REQUEST', AUTH_BATCH_MESSAGE);
}
