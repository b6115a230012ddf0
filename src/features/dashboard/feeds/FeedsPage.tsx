import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Newspaper } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Page } from '../../../components/ui/Page';
import { EmptyState, LoadError, Loading } from '../../../components/ui/States';
import { toastError } from '../../../lib/notify';
import { useTRPC } from '../../../lib/trpc';
import { useSessionInfo } from '../../../lib/use-session';
import { FeedPostCard } from './FeedPostCard';
import { applyLike, type FeedPages } from './feed-cache';
import { LikersDialog } from './LikersDialog';
import { type LiveState, useLiveFeed } from './use-live-feed';

export const FEED_PAGE_SIZE = 10;

/** Re-renders every `ms` so relative times ('5m') stay true while the page is open. */
function useNow(ms: number) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

export function FeedsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const viewerId = useSessionInfo()?.id ?? null;
  const live = useLiveFeed(viewerId);
  const now = useNow(30_000);
  const [likersOf, setLikersOf] = useState<number | null>(null);
  const [busy, setBusy] = useState<ReadonlySet<number>>(new Set());

  const feed = useInfiniteQuery(
    trpc.feed.list.infiniteQueryOptions({ limit: FEED_PAGE_SIZE }, { getNextPageParam: (last) => last.nextCursor ?? undefined }),
  );
  const feedKey = trpc.feed.list.infiniteQueryKey();
  const setLike = (postId: number, likeCount: number, likedByMe: boolean) =>
    queryClient.setQueriesData<FeedPages>({ queryKey: feedKey }, (data) => data && applyLike(data, postId, likeCount, likedByMe, viewerId));

  const toggleLike = useMutation(trpc.feed.toggleLike.mutationOptions());
  const onToggleLike = async (postId: number, liked: boolean, likeCount: number) => {
    if (viewerId === null || busy.has(postId)) return;
    setBusy((s) => new Set(s).add(postId));
    // Shown at once; the server's answer (and the live event) then set the true count.
    setLike(postId, Math.max(0, likeCount + (liked ? -1 : 1)), !liked);
    try {
      const result = await toggleLike.mutateAsync({ id: viewerId, feedId: postId });
      setLike(result.feedId, result.likeCount, result.liked);
    } catch (error) {
      setLike(postId, likeCount, liked);
      toastError(error);
    } finally {
      setBusy((s) => {
        const next = new Set(s);
        next.delete(postId);
        return next;
      });
    }
  };

  // Infinite scroll: the next page loads as the end of the list comes into view.
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = feed;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const posts = feed.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Page title="Feeds" lead="News, tips and updates from your dietitians." actions={<LiveBadge state={live} />} width="max-w-2xl">
      {feed.isPending ? (
        <Loading label="Loading the feed" />
      ) : feed.isError && posts.length === 0 ? (
        <LoadError error={feed.error} onRetry={() => void feed.refetch()} />
      ) : posts.length === 0 ? (
        <div className="rounded-2xl border border-slate-200 bg-white">
          <EmptyState Icon={Newspaper} testId="feed-empty">
            No updated feed
          </EmptyState>
        </div>
      ) : (
        <div className="flex flex-col gap-4" data-testid="feed-list">
          {posts.map((post) => (
            <FeedPostCard
              key={post.id}
              post={post}
              now={now}
              likeBusy={busy.has(post.id)}
              onToggleLike={() => void onToggleLike(post.id, post.likedByMe, post.likeCount)}
              onShowLikers={() => setLikersOf(post.id)}
            />
          ))}
          <div ref={sentinel} />
          {hasNextPage ? (
            <Button variant="secondary" className="self-center" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
              {isFetchingNextPage ? 'Loading more posts…' : 'Load more posts'}
            </Button>
          ) : (
            posts.length > FEED_PAGE_SIZE && <p className="py-2 text-center text-sm text-slate-500">You're all caught up.</p>
          )}
        </div>
      )}
      <LikersDialog postId={likersOf} onClose={() => setLikersOf(null)} />
    </Page>
  );
}

function LiveBadge({ state }: { state: LiveState }) {
  const text = state === 'live' ? 'Live' : state === 'offline' ? 'Offline, retrying' : 'Connecting';
  const dot = state === 'live' ? 'bg-green-500' : state === 'offline' ? 'bg-red-500' : 'bg-amber-500';
  return (
    <span
      role="status"
      className="inline-flex items-center gap-2 rounded-full border border-slate-200 bg-white px-3 py-1 text-sm font-medium text-slate-700"
      data-testid="live-state"
      data-state={state}
    >
      <span className={`h-2.5 w-2.5 rounded-full ${dot} ${state === 'live' ? 'motion-safe:animate-pulse' : ''}`} aria-hidden="true" />
      {text}
      <span className="sr-only"> updates</span>
    </span>
  );
}
