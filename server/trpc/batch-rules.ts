/**
 * Which tRPC calls may share an HTTP request: constants only, so the web
 * client imports the same rules the server enforces (batch-policy.ts).
 * Batches are kept small, and auth calls (sign-in, password reset, refresh,
 * sign-out...) never ride in one: each costs the caller a request of its own,
 * so limits and the hashing queue see every attempt as it arrives.
 */
export const MAX_BATCH_SIZE = 10;

export const isAuthCall = (path: string) => path.startsWith('auth.');
