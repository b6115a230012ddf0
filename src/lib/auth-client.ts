import type { QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpLink, TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable, type Unsubscribable } from '@trpc/server/observable';
import { toast } from './toast';
import superjson from 'superjson';
import { navigate } from 'wouter/use-browser-location';
import type { Role } from '../../server/auth/roles';
import type { AppRouter } from '../../server/trpc/root';
import { connection } from './connection';
import { isOutage } from './outage';
import type { RouterOutputs } from './router-types';
import { type SessionInfo, session } from './session';

/**
 * The browser side of authentication: the password is encrypted before it
 * leaves the page, and an expired session token is renewed once with the
 * refresh token (the stored 'refresh_user') before the user is signed out.
 */

/** The server's answers, inferred from the router: a change there is a type error here. */
export type PublicKeyAnswer = RouterOutputs['auth']['publicKey'];
export type SessionAnswer = RouterOutputs['auth']['signIn'];
/** What a renewal answers: the same session fields as a sign-in. */
type RefreshAnswer = RouterOutputs['auth']['refresh'];

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';

function base64url(bytes: ArrayBuffer): string {
  let binary = '';
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** RSA-OAEP with SHA-256 over the UTF-8 password → `enc:<kid>:<base64url ciphertext>`. */
export async function encryptPassword(key: PublicKeyAnswer, password: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('This page must be opened over HTTPS to sign in securely.');
  const { kid: _kid, ...jwk } = key.jwk;
  const cryptoKey = await subtle.importKey('jwk', jwk, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const ciphertext = await subtle.encrypt({ name: 'RSA-OAEP' }, cryptoKey, new TextEncoder().encode(password));
  return `enc:${key.kid}:${base64url(ciphertext)}`;
}

/** What 'info' holds: {id, fullName, height, weight}. */
export function storeSignedIn(data: SessionAnswer['data'] | RefreshAnswer['data']) {
  const info: SessionInfo = { id: data.id, fullName: data.fullName, height: data.height, weight: data.weight };
  session.store({ token: data.token, refreshToken: data.refreshToken, info });
}

/**
 * A client without the refresh link or a session token, for the calls that
 * happen outside a session: signing in, and the refresh call itself (so a
 * failing refresh can never trigger another refresh).
 */
const bareClient = createTRPCClient<AppRouter>({ links: [httpLink({ url: '/trpc', transformer: superjson })] });

/**
 * Signs in with the password encrypted in the page, then stores the session.
 * The role says which door: the client login (2) or the console (1).
 * `queryCache` is the app's query client: nothing cached for an earlier
 * session may show in this one.
 */
export async function signInWithPassword(
  queryCache: QueryClient,
  { email, password, role }: { email: string; password: string; role: Role },
): Promise<SessionAnswer> {
  // The key rotates: fetch the current one for every attempt.
  const key = await bareClient.auth.publicKey.query();
  const answer = await bareClient.auth.signIn.mutate({
    email,
    password: await encryptPassword(key, password),
    role,
    deviceToken: session.deviceToken(),
  });
  queryCache.removeQueries();
  storeSignedIn(answer.data);
  session.rememberDevice(answer.data.deviceToken);
  return answer;
}

/**
 * How a renewal ended: a fresh token is stored; the server refused the
 * refresh token (401: the session is over); or the server could not answer
 * (network error, 5xx: an outage, and the session is kept for later).
 */
export type Renewal = 'renewed' | 'refused' | 'unavailable';

let inflight: Promise<Renewal> | null = null;

async function renew(staleToken: string | null): Promise<Renewal> {
  // Another tab (or an earlier call in this one) may already have renewed it.
  const current = session.token();
  if (current !== null && current !== staleToken) return 'renewed';
  const refreshToken = session.refreshToken();
  if (!current || !refreshToken) return 'refused';
  try {
    const answer = await bareClient.auth.refresh.mutate({ refreshToken });
    // Signed out meanwhile (another tab): do not resurrect the session.
    if (!session.isSignedIn()) return 'refused';
    storeSignedIn(answer.data);
    return 'renewed';
  } catch (error) {
    // Only the server saying no to the refresh token ends a session; an outage never does.
    if (isUnauthorized(error)) return 'refused';
    if (isOutage(error)) connection.reportOutage();
    return 'unavailable';
  }
}

/**
 * Renews the session token with the refresh token. One renewal at a time in
 * this tab, and across tabs through a Web Lock, because a refresh token is
 * single-use: two tabs spending the same one would end the session.
 */
export function refreshSession(staleToken: string | null = session.token()): Promise<Renewal> {
  inflight ??= (async () => {
    try {
      const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
      if (locks) return await locks.request('poshan-session-refresh', () => renew(staleToken));
      return await renew(staleToken);
    } finally {
      inflight = null;
    }
  })();
  return inflight;
}

/** The console's own sign-in page. */
export const ADMIN_LOGIN = '/admin/login';

/**
 * Where a session that ends (signed out, expired or refused) leaves the user:
 * the root, except in the console, which goes back to its own sign-in.
 */
export const signedOutPath = (path = location.pathname) => (path === '/admin' || path.startsWith('/admin/') ? ADMIN_LOGIN : '/');

/** The session is over: wipe it, leave for `signedOutPath`, say why (once, even if several calls fail together). */
export function endExpiredSession(message = SESSION_EXPIRED_MESSAGE) {
  const wasSignedIn = session.isSignedIn();
  session.clear();
  const destination = signedOutPath();
  if (location.pathname !== destination) navigate(destination, { replace: true });
  if (wasSignedIn) toast.error(message, { id: 'session-ended' });
}

/**
 * Errors whose message the user has already been shown (the session-ended
 * toast), so screens do not toast the same failure a second time.
 */
const handledErrors = new WeakSet<object>();
export const isHandled = (error: unknown) => typeof error === 'object' && error !== null && handledErrors.has(error);

export const isUnauthorized = (error: unknown) => error instanceof TRPCClientError && error.data?.code === 'UNAUTHORIZED';

/** The server answered and refused the session (401, or 403 for the wrong area), as opposed to a network or server failure. */
export const refusedByServer = (error: unknown) => {
  const status = error instanceof TRPCClientError ? (error.data as { httpStatus?: number } | undefined)?.httpStatus : undefined;
  return status === 401 || status === 403;
};

/** Calls that must never trigger a renewal: signing in, the renewal itself, and signing out (which takes the refresh token). */
const NO_RENEWAL = new Set(['auth.signIn', 'auth.refresh', 'auth.signOut', 'auth.publicKey', 'auth.forgotPassword', 'auth.resetPassword']);

/**
 * A tRPC link: when a query or mutation made with a session token fails as
 * unauthorized, renew the token once and repeat the call; if the server
 * refuses the renewal, end the session. If the server cannot be reached, the
 * session is kept and the call fails quietly (the Reconnecting… notice says
 * why). Any call failing for an outage reports it. Subscriptions are renewed
 * by their owner (the socket carries the token from when it opened).
 */
/**
 * A tRPC link: while the user is signing out, every call but the sign-out itself fails here, unsent. A read that
 * a page starts meanwhile (one mounted as its code arrived) would otherwise reach the server after the session
 * was revoked and be answered 401; the page is about to be left, so its error is handled (no toast).
 */
export function signingOutLink(): TRPCLink<AppRouter> {
  return () =>
    ({ op, next }) => {
      if (!session.isSigningOut() || op.path === 'auth.signOut') return next(op);
      return observable((observer) => {
        const error = new TRPCClientError<AppRouter>('Signing out: this call was not sent.');
        handledErrors.add(error);
        observer.error(error);
      });
    };
}

export function sessionRefreshLink(): TRPCLink<AppRouter> {
  return () =>
    ({ op, next }) =>
      observable((observer) => {
        const sentWith = session.token();
        let current: Unsubscribable | null = null;
        let disposed = false;
        const attempt = (retried: boolean) => {
          current = next(op).subscribe({
            next: (value) => observer.next(value),
            complete: () => observer.complete(),
            error: (error) => {
              if (isOutage(error)) {
                connection.reportOutage();
                // A query is fetched again when the server is back; a failed save is still told with a toast.
                if (op.type === 'query') handledErrors.add(error);
              }
              const renewable =
                !retried && op.type !== 'subscription' && sentWith !== null && !NO_RENEWAL.has(op.path) && isUnauthorized(error);
              if (!renewable) {
                observer.error(error);
                return;
              }
              void refreshSession(sentWith).then((renewal) => {
                if (disposed) return;
                if (renewal === 'renewed') return attempt(true);
                if (renewal === 'refused') endExpiredSession();
                handledErrors.add(error);
                observer.error(error);
              });
            },
          });
        };
        attempt(false);
        return () => {
          disposed = true;
          current?.unsubscribe();
        };
      });
}
