import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { ZodError, type z } from 'zod';
import { DISK_FULL_MESSAGE, DISK_FULL_RETRY_AFTER_SECONDS, isDiskFull } from './db/disk-full.js';
import { isDatabaseUnavailable } from './db/unavailable.js';

export type FieldErrors = Record<string, string[]>;
type Code = ConstructorParameters<typeof TRPCError>[0]['code'];

/**
 * A domain error: services throw it, tRPC and REST both map its code to a
 * status. Messages are written for the person who will read them.
 */
export class AppError extends TRPCError {
  readonly fieldErrors?: FieldErrors;
  readonly retryAfterSeconds?: number;
  /** What the caller can act on beside the message (e.g. a 409's next free slots): REST puts it in `data`, tRPC in `data.details`. */
  readonly details?: Record<string, unknown>;
  constructor(
    code: Code,
    message: string,
    opts: { fieldErrors?: FieldErrors; retryAfterSeconds?: number; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super({ code, message, cause: opts.cause });
    this.fieldErrors = opts.fieldErrors;
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.details = opts.details;
  }
}

/** A 429 from a rate limit; `limits` name what was full, for the refusal metric. */
export class RateLimitError extends AppError {
  constructor(
    message: string,
    retryAfterSeconds: number,
    readonly limits: string[],
  ) {
    super('TOO_MANY_REQUESTS', message, { retryAfterSeconds });
  }
}

export const badRequest = (message: string, fieldErrors?: FieldErrors) => new AppError('BAD_REQUEST', message, { fieldErrors });
export const unauthorized = (message = 'Please sign in to continue.') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message = 'You do not have permission to do that.') => new AppError('FORBIDDEN', message);
export const notFound = (message: string, fieldErrors?: FieldErrors) => new AppError('NOT_FOUND', message, { fieldErrors });
export const conflict = (message: string) => new AppError('CONFLICT', message);
/** A 422: the request is well formed but cannot be done as sent (e.g. a repeat's key with other details). */
export const unprocessable = (message: string, fieldErrors?: FieldErrors) =>
  new AppError('UNPROCESSABLE_CONTENT', message, { fieldErrors });

/** How long a caller should wait before trying again during an outage (the Retry-After header). */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;
export const OUTAGE_MESSAGE = 'The service is briefly unavailable. Please try again in a moment.';

/** An outage (the database cannot be reached): 503 with Retry-After, so clients wait and retry instead of signing out. */
export const serviceUnavailable = (cause?: unknown) =>
  new AppError('SERVICE_UNAVAILABLE', OUTAGE_MESSAGE, { retryAfterSeconds: OUTAGE_RETRY_AFTER_SECONDS, cause });

/** A write refused because the database's disk is full: 503, with a message that says so. */
export const diskFull = (cause?: unknown) =>
  new AppError('SERVICE_UNAVAILABLE', DISK_FULL_MESSAGE, { retryAfterSeconds: DISK_FULL_RETRY_AFTER_SECONDS, cause });

/** The same error, or a 503 when it is really a database outage or a full disk. */
export const asOutage = (error: unknown) => {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) return serviceUnavailable(error);
  return isDiskFull(error) ? diskFull(error) : error;
};

const DEFAULT_ZOD_MESSAGE = /^(Invalid|Too (small|big)|Unrecognized|Expected)/;

function fieldLabel(path: PropertyKey[]): string {
  return path.map(String).join('.') || 'input';
}

/** A message naming the field: ours already do; zod's defaults get the field prefixed. */
export function issueMessage(issue: z.core.$ZodIssue): string {
  return DEFAULT_ZOD_MESSAGE.test(issue.message) ? `${fieldLabel(issue.path)}: ${issue.message}` : issue.message;
}

export function zodFieldErrors(error: ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = fieldLabel(issue.path);
    out[key] = [...(out[key] ?? []), issueMessage(issue)];
  }
  return out;
}

export type DescribedError = {
  status: number;
  code: Code;
  message: string;
  fieldErrors?: FieldErrors;
  retryAfterSeconds?: number;
  details?: Record<string, unknown>;
};

/**
 * One description of any error for both transports: the HTTP status, a
 * message a person can act on, and field errors when input was invalid.
 * Internal details (a database message, a stack) never go to a remote caller,
 * whatever NODE_ENV says: they go to the log. Only a local command showing its
 * own failure to its operator passes `exposeInternal`.
 */
export function describeError(error: unknown, exposeInternal = false): DescribedError {
  const trpcError = error instanceof TRPCError ? error : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: error as Error });
  const cause = trpcError.cause;
  if (trpcError.code === 'INTERNAL_SERVER_ERROR' && isDatabaseUnavailable(cause)) {
    return { status: 503, code: 'SERVICE_UNAVAILABLE', message: OUTAGE_MESSAGE, retryAfterSeconds: OUTAGE_RETRY_AFTER_SECONDS };
  }
  if (trpcError.code === 'INTERNAL_SERVER_ERROR' && isDiskFull(cause)) {
    return { status: 503, code: 'SERVICE_UNAVAILABLE', message: DISK_FULL_MESSAGE, retryAfterSeconds: DISK_FULL_RETRY_AFTER_SECONDS };
  }
  const status = getHTTPStatusCodeFromError(trpcError);
  if (cause instanceof ZodError) {
    const first = cause.issues[0];
    return {
      status: 400,
      code: 'BAD_REQUEST',
      message: first ? issueMessage(first) : 'The request is not valid.',
      fieldErrors: zodFieldErrors(cause),
    };
  }
  if (trpcError.code === 'INTERNAL_SERVER_ERROR') {
    return {
      status,
      code: trpcError.code,
      message: exposeInternal && cause instanceof Error ? cause.message : 'Something went wrong on our side. Please try again.',
    };
  }
  return {
    status,
    code: trpcError.code,
    message: trpcError.message,
    fieldErrors: trpcError instanceof AppError ? trpcError.fieldErrors : undefined,
    retryAfterSeconds: trpcError instanceof AppError ? trpcError.retryAfterSeconds : undefined,
    details: trpcError instanceof AppError ? trpcError.details : undefined,
  };
}
