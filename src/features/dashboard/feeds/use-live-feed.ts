import { useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { FeedEvent } from '../../../../server/feed/schema';
import { endExpiredSession, isUnauthorized, refreshSession } from '../../../lib/auth-client';
import { session } from '../../../lib/session';
import { useTRPC } from '../../../lib/trpc';
import { applyFeedEvent, type FeedPages } from './feed-cache';

export type LiveState = 'connecting' | 'live' | 'offline';

/** Waits after a token change before subscribing again, so the old socket is closed first. */
const RESUBSCRIBE_AFTER_TOKEN_CHANGE_MS = 150;
const retryDelay = (attempt: number) => Math.min(30_000, 1000 * 2 ** attempt) + Math.floor(Math.random() * 500);

/**
 * Keeps the loaded feed live: subscribes to feed.events over the WebSocket
 * and writes every event into react-query's cache (like counts, new, edited
 * and deleted posts) without refetching; 'resync' (events missed beyond
 * replay) refetches. The last event id is kept, so a new subscription (new
 * token, or after an error) resumes where the last one stopped; dropped
 * sockets are resumed by the WebSocket client itself with the same id. A
 * fresh subscription reloads the feed once it is live, so nothing that
 * happened between loading the feed and subscribing is missed.
 */
export function useLiveFeed(viewerId: number | null): LiveState {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const token = useSyncExternalStore(session.subscribe, session.token, () => null);
  const lastEventId = useRef<string | null>(null);
  const [subscribedToken, setSubscribedToken] = useState(token);
  const [generation, setGeneration] = useState(0);
  const [ready, setReady] = useState(false);
  const failures = useRef(0);
  /** Whether the running subscription resumed from an event id (missed events are replayed) or started fresh. */
  const resumed = useRef(false);

  useEffect(() => {
    if (token === subscribedToken) return;
    const timer = setTimeout(() => setSubscribedToken(token), RESUBSCRIBE_AFTER_TOKEN_CHANGE_MS);
    return () => clearTimeout(timer);
  }, [token, subscribedToken]);

  const input = useMemo(() => ({ lastEventId: lastEventId.current }), [subscribedToken, generation]);
  const enabled = token !== null && token === subscribedToken;

  const feedKey = trpc.feed.list.infiniteQueryKey();
  const subscription = useSubscription(
    trpc.feed.events.subscriptionOptions(input, {
      enabled,
      onStarted: () => {
        resumed.current = lastEventId.current !== null;
        setReady(false);
      },
      onData: (tracked) => {
        const { id, data: event } = tracked as { id: string; data: FeedEvent };
        lastEventId.current = id;
        failures.current = 0;
        if (event.kind === 'ready') {
          setReady(true);
          // A fresh subscription cannot know what changed before it started: load the feed as of now.
          if (!resumed.current) void queryClient.invalidateQueries({ queryKey: feedKey });
          resumed.current = true;
          return;
        }
        let refetch = false;
        queryClient.setQueriesData<FeedPages>({ queryKey: feedKey }, (data) => {
          if (!data) return data;
          const next = applyFeedEvent(data, event, viewerId);
          if (next === 'refetch') {
            refetch = true;
            return data;
          }
          return next;
        });
        if (refetch) void queryClient.invalidateQueries({ queryKey: feedKey });
        if (event.kind === 'like.changed') {
          void queryClient.invalidateQueries({ queryKey: trpc.feed.likers.infiniteQueryKey({ postId: event.postId }) });
        }
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
