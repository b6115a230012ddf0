import { zodResolver } from '@hookform/resolvers/zod';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { Newspaper, Pencil, Send, Trash2, Users } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import type { z } from 'zod';
import { createPostInput, type FeedItem, POST_MAX_CHARS } from '../../../../server/feed/schema';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { TextAreaField } from '../../../components/ui/Field';
import { Modal } from '../../../components/ui/Modal';
import { errorMessage } from '../../../lib/errors';
import { toastError } from '../../../lib/notify';
import { useTRPC } from '../../../lib/trpc';
import { LikersDialog } from '../../dashboard/feeds/LikersDialog';
import { formatMoment } from '../format';
import { EmptyState, LoadError, Loading, Page } from '../ui';
import { PostText } from './PostText';

type PostForm = z.input<typeof createPostInput>;
type PostValues = z.output<typeof createPostInput>;
const PAGE = 20;

/**
 * Write, edit and delete the feed's posts (admin.feed.create/update/remove, server/feed/console.ts); the
 * clients' dashboards update live. The list follows feed.events too, so
 * like counts here move as clients like.
 */
export function FeedAdminPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const feedKey = trpc.feed.list.infiniteQueryKey();
  const feed = useInfiniteQuery(
    trpc.feed.list.infiniteQueryOptions({ limit: PAGE }, { getNextPageParam: (last) => last.nextCursor ?? undefined }),
  );
  const [likersOf, setLikersOf] = useState<number | null>(null);

  const refetchSoon = useRef<ReturnType<typeof setTimeout> | null>(null);
  useSubscription(
    trpc.feed.events.subscriptionOptions(undefined, {
      onData: () => {
        if (refetchSoon.current) return;
        refetchSoon.current = setTimeout(() => {
          refetchSoon.current = null;
          void queryClient.invalidateQueries({ queryKey: feedKey });
        }, 300);
      },
    }),
  );
  useEffect(() => () => void (refetchSoon.current && clearTimeout(refetchSoon.current)), []);

  const posts = feed.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Page title="Feed" lead="Posts appear on every client's dashboard at once." width="max-w-3xl">
      <div className="flex flex-col gap-5">
        <Composer />
        {feed.isPending ? (
          <Loading label="Loading posts" />
        ) : feed.isError ? (
          <LoadError error={feed.error} onRetry={() => void feed.refetch()} />
        ) : posts.length === 0 ? (
          <Card>
            <EmptyState Icon={Newspaper}>No posts yet. Write the first one above.</EmptyState>
          </Card>
        ) : (
          <div className="flex flex-col gap-4" data-testid="admin-feed-list">
            {posts.map((post) => (
              <PostCard key={post.id} post={post} onShowLikers={() => setLikersOf(post.id)} />
            ))}
            {feed.hasNextPage && (
              <Button
                variant="secondary"
                className="self-center"
                disabled={feed.isFetchingNextPage}
                onClick={() => void feed.fetchNextPage()}
              >
                {feed.isFetchingNextPage ? 'Loading…' : 'Load older posts'}
              </Button>
            )}
          </div>
        )}
      </div>
      <LikersDialog postId={likersOf} onClose={() => setLikersOf(null)} />
    </Page>
  );
}

function Composer() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const create = useMutation(trpc.admin.feed.create.mutationOptions());
  const form = useForm<PostForm, unknown, PostValues>({ resolver: zodResolver(createPostInput), defaultValues: { desc: '' } });
  const length = (form.watch('desc') as string | undefined)?.length ?? 0;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await overlay.run(create.mutateAsync(values));
      form.reset({ desc: '' });
      await queryClient.invalidateQueries({ queryKey: trpc.feed.list.infiniteQueryKey() });
      toast.success('Posted. Clients see it now.');
    } catch (error) {
      toastError(error);
    }
  });
  return (
    <Card>
      <form method="post" onSubmit={onSubmit} noValidate className="flex flex-col gap-3 p-4 sm:p-5" data-testid="post-composer">
        <TextAreaField
          label="New post"
          rows={5}
          placeholder="A tip, a recipe, an update… Links are made clickable."
          hint={`${length} / ${POST_MAX_CHARS}`}
          error={form.formState.errors.desc?.message}
          {...form.register('desc')}
        />
        <Button type="submit" className="self-end">
          <Send className="h-4 w-4" aria-hidden="true" />
          Publish
        </Button>
      </form>
    </Card>
  );
}

function PostCard({ post, onShowLikers }: { post: FeedItem; onShowLikers: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const update = useMutation(trpc.admin.feed.update.mutationOptions());
  const remove = useMutation(trpc.admin.feed.remove.mutationOptions());
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(post.desc);
  const [error, setError] = useState<string>();
  const [confirm, setConfirm] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.feed.list.infiniteQueryKey() });

  const onSave = async () => {
    try {
      await overlay.run(update.mutateAsync({ id: post.id, desc: draft }));
      setEditing(false);
      setError(undefined);
      await refresh();
      toast.success('Post updated.');
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const onDelete = async () => {
    try {
      await overlay.run(remove.mutateAsync({ id: post.id }));
      setConfirm(false);
      await refresh();
      toast.success('Post deleted.');
    } catch (e) {
      toastError(e);
    }
  };

  return (
    <article className="rounded-2xl border border-slate-200 bg-white shadow-sm" data-testid="admin-post">
      <header className="flex items-center justify-between gap-2 px-4 pt-3 sm:px-5">
        <span className="text-sm text-slate-600">{formatMoment(post.createdAt)}</span>
        {!editing && (
          <span className="flex gap-1">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setDraft(post.desc);
                setEditing(true);
              }}
            >
              <Pencil className="h-4 w-4" aria-hidden="true" />
              Edit
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setConfirm(true)}>
              <Trash2 className="h-4 w-4" aria-hidden="true" />
              Delete
            </Button>
          </span>
        )}
      </header>
      <div className="px-4 py-3 sm:px-5">
        {editing ? (
          <div className="flex flex-col gap-2">
            <TextAreaField label="Edit post" rows={5} value={draft} onChange={(e) => setDraft(e.target.value)} error={error} />
            <div className="flex justify-end gap-2">
              <Button variant="secondary" size="sm" onClick={() => setEditing(false)}>
                Cancel
              </Button>
              <Button size="sm" onClick={() => void onSave()}>
                Save
              </Button>
            </div>
          </div>
        ) : (
          <PostText text={post.desc} />
        )}
      </div>
      <footer className="border-t border-slate-100 px-2 py-1.5 sm:px-3">
        <button
          type="button"
          onClick={onShowLikers}
          className="flex items-center gap-2 rounded-lg px-2.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100"
          aria-haspopup="dialog"
          data-testid="admin-like-count"
        >
          <Users className="h-5 w-5 text-slate-500" aria-hidden="true" />
          {post.likeCount} {post.likeCount === 1 ? 'like' : 'likes'}
        </button>
      </footer>
      <Modal
        open={confirm}
        onOpenChange={setConfirm}
        title="Delete this post?"
        description="It disappears from every client's feed, with its likes."
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirm(false)}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => void onDelete()}>
              Delete post
            </Button>
          </>
        }
      >
        {null}
      </Modal>
    </article>
  );
}
