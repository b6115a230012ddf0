import { useQueryClient } from '@tanstack/react-query';
import type { FeedEvent } from '../../../../server/feed/schema';
import { type LiveState, useLiveSubscription } from '../../../lib/use-live-subscription';
import { useTRPC } from '../../../lib/trpc';
import { applyFeedEvent, type FeedPages } from './feed-cache';

export type { LiveState };

/**
 * Keeps the loaded feed live: subscribes to feed.events over the WebSocket
 * (lib/use-live-subscription.ts: token changes, resume ids, retries) and
 * writes every event into react-query's cache (like counts, new, edited and
 * deleted posts) without refetching; 'resync' (events missed beyond replay)
 * refetches. A fresh subscription reloads the feed once it is live, so
 * nothing that happened between loading the feed and subscribing is missed.
 */
export function useLiveFeed(viewerId: number | null): LiveState {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const feedKey = trpc.feed.list.infiniteQueryKey();
  return useLiveSubscription({
    resumable: true,
    options: (lastEventId, handlers) => trpc.feed.events.subscriptionOptions({ lastEventId }, handlers),
    onReady: (fresh) => {
      // A fresh subscription cannot know what changed before it started: load the feed as of now.
      if (fresh) void queryClient.invalidateQueries({ queryKey: feedKey });
    },
    onEvent: (event: FeedEvent) => {
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
  });
}
