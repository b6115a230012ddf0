import { useSubscription } from '@trpc/tanstack-react-query';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { endExpiredSession, isUnauthorized, refreshSession } from './auth-client';
import { session } from './session';

export type LiveState = 'connecting' | 'live' | 'offline';

/** Waits after a token change before subscribing again, so the old socket is closed first. */
const RESUBSCRIBE_AFTER_TOKEN_CHANGE_MS = 150;
const retryDelay = (attempt: number) => Math.min(30_000, 1000 * 2 ** attempt) + Math.floor(Math.random() * 500);

/** What the hook hands to a procedure's subscriptionOptions. */
export type LiveHandlers = {
  enabled: boolean;
  onStarted: () => void;
  onData: (data: unknown) => void;
  onError: (error: unknown) => void;
};

type SubscriptionOptions<D, Er> = Parameters<typeof useSubscription<D, Er>>[0];

export type LiveSubscriptionOptions<E extends { kind: string }, D, Er> = {
  /** Another key (another conversation) starts afresh: the last event id is forgotten. */
  key?: string | number;
  /** Whether the stream is tracked (its events come as { id, data }, and a new subscription resumes from the last id). */
  resumable: boolean;
  /** No subscription while false (and none without a session). */
  enabled?: boolean;
  /** The procedure's subscriptionOptions for this last event id: `trpc.x.events.subscriptionOptions({ ..., lastEventId }, handlers)`. */
  options: (lastEventId: string | null, handlers: LiveHandlers) => SubscriptionOptions<D, Er>;
  /** Every event but 'ready'. */
  onEvent: (event: E) => void;
  /**
   * The stream is live ('ready'). `fresh`: it did not resume from an event id, so
   * what changed before it started is unknown (load the current state).
   */
  onReady?: (fresh: boolean) => void;
};

/**
 * One live tRPC subscription, kept running: it follows the session token
 * (a new token resubscribes once the old socket is closed; an ended one is
 * renewed, or the session ends), retries after errors with a growing delay,
 * and resubscribes when the socket client ended it. A resumable stream keeps
 * its last event id, so a new subscription replays what the last one missed
 * (dropped sockets are resumed by the WebSocket client itself with the same id).
 */
export function useLiveSubscription<E extends { kind: string }, D = unknown, Er = unknown>(
  opts: LiveSubscriptionOptions<E, D, Er>,
): LiveState {
  const token = useSyncExternalStore(session.subscribe, session.token, () => null);
  const lastEventId = useRef<string | null>(null);
  const key = useRef(opts.key);
  if (key.current !== opts.key) {
    key.current = opts.key;
    lastEventId.current = null;
  }
  const [subscribedToken, setSubscribedToken] = useState(token);
  const [generation, setGeneration] = useState(0);
  const [ready, setReady] = useState(false);
  const failures = useRef(0);
  /** Whether the running subscription resumed from an event id (missed events are replayed) or started fresh. */
  const resumed = useRef(false);
  const latest = useRef(opts);
  latest.current = opts;

  useEffect(() => {
    if (token === subscribedToken) return;
    const timer = setTimeout(() => setSubscribedToken(token), RESUBSCRIBE_AFTER_TOKEN_CHANGE_MS);
    return () => clearTimeout(timer);
  }, [token, subscribedToken]);

  // The id is read when a new subscription starts (token, retry, key), not on every event.
  const cursor = useMemo(() => lastEventId.current, [subscribedToken, generation, opts.key]);
  const enabled = token !== null && token === subscribedToken && opts.enabled !== false;

  const subscription = useSubscription(
    opts.options(cursor, {
      enabled,
      onStarted: () => {
        resumed.current = lastEventId.current !== null;
        setReady(false);
      },
      onData: (data) => {
        let event = data as E;
        if (latest.current.resumable) {
          const t = data as { id: string; data: E };
          lastEventId.current = t.id;
          event = t.data;
        }
        failures.current = 0;
        if (event.kind === 'ready') {
          setReady(true);
          latest.current.onReady?.(!resumed.current || !latest.current.resumable);
          resumed.current = true;
          return;
        }
        latest.current.onEvent(event);
      },
      onError: (error) => {
        setReady(false);
        const retryLater = () => {
          const attempt = failures.current++;
          setTimeout(() => setGeneration((g) => g + 1), retryDelay(attempt));
        };
        if (isUnauthorized(error)) {
          // The socket carried an ended token: renew it (the token change resubscribes), end the session
          // if the server refuses, or try again later if it cannot be reached.
          void refreshSession(subscribedToken).then((renewal) => {
            if (renewal === 'refused') endExpiredSession();
            else if (renewal === 'unavailable') retryLater();
          });
          return;
        }
        // Not allowed, or not there: trying again would not help.
        const code = (error as { data?: { code?: string } } | null)?.data?.code;
        if (code === 'FORBIDDEN' || code === 'NOT_FOUND') return;
        retryLater();
      },
    }),
  );

  // The socket client ends every subscription when it closes (it does on sign-in/out and token renewal).
  useEffect(() => {
    if (!enabled || subscription.status !== 'idle') return;
    const timer = setTimeout(() => setGeneration((g) => g + 1), RESUBSCRIBE_AFTER_TOKEN_CHANGE_MS);
    return () => clearTimeout(timer);
  }, [enabled, subscription.status]);

  if (subscription.status === 'pending' && ready) return 'live';
  if (subscription.status === 'error') return 'offline';
  return 'connecting';
}
