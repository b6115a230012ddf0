/**
 * Whether an error means "the database cannot be reached right now" (an
 * outage) rather than "the query or the data is wrong" (a bug). Outages are
 * answered 503 with Retry-After, never 401 or 500: a client must not sign its
 * user out, or give up, because Postgres restarted.
 */

/** Socket-level failures from Node while connecting or talking to the server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * SQLSTATEs that describe the server, not the statement: class 08 (connection
 * exception), 57P01-57P03 (admin or crash shutdown, cannot connect now), 53300
 * (too many connections).
 */
const SERVER_STATES = /^(08...|57P0[1-3]|53300)$/;

/** What pg and PGlite say when a connection died, timed out in the pool, or the handle is closing. */
const MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error and is not queryable/i,
  /Cannot use a pool after calling end/i,
  /driver has already been destroyed/i,
  /PGlite is closed/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SERVER_STATES.test(e.code))) return true;
  if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string))) return true;
  // Node reports a refused dual-stack connect as an AggregateError of both attempts.
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
