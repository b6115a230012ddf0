/**
 * What the answer to a sign-out tells the browser to forget: its HTTP cache
 * of this site, so photos, documents and PDFs opened while signed in are not
 * there for the next person on a shared computer. Only the cache: storage
 * would also end the service worker, and with it the device's push
 * subscription and the offline app.
 */
export const SIGN_OUT_HEADERS: Readonly<Record<string, string>> = { 'Clear-Site-Data': '"cache"' };

const SIGN_OUT_PROCEDURE = 'auth.signOut';

/** The sign-out's headers for a tRPC request that called it (whatever its outcome: a session already gone is signed out too). */
export function signOutHeaders(info: { calls: readonly { path: string }[] } | undefined): Record<string, string> {
  return info?.calls.some((call) => call.path === SIGN_OUT_PROCEDURE) ? { ...SIGN_OUT_HEADERS } : {};
}
