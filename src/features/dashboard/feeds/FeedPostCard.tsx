import { ThumbsUp, Users } from 'lucide-react';
import type { FeedItem } from '../../../../server/feed/schema';
import { fullDateTime, relativeTime, toDate } from '../../../lib/relative-time';
import { LogoMark } from '../../public/layout/Logo';

/** One admin post: avatar, admin name, 'Admin' label, age, text, like count and like toggle. */
export function FeedPostCard({
  post,
  now,
  onToggleLike,
  onShowLikers,
  likeBusy,
}: {
  post: FeedItem;
  now: Date;
  onToggleLike: () => void;
  onShowLikers: () => void;
  likeBusy: boolean;
}) {
  const created = toDate(post.createdAt);
  const people = post.likeCount === 1 ? 'person likes' : 'people like';
  return (
    <article
      className="rounded-2xl border border-slate-200 bg-white shadow-sm"
      aria-labelledby={`post-${post.id}-author`}
      data-testid="feed-post"
    >
      <header className="flex items-center gap-3 px-4 pt-4 sm:px-5">
        <span className="flex h-11 w-11 shrink-0 items-center justify-center overflow-hidden rounded-full bg-brand-700">
          <LogoMark className="h-11 w-11" />
        </span>
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
            <span id={`post-${post.id}-author`} className="font-semibold text-slate-900">
              {post.author.name}
            </span>
            <span className="rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold tracking-wide text-brand-800 uppercase">
              Admin
            </span>
          </div>
          {created ? (
            <time
              dateTime={created.toISOString()}
              title={fullDateTime(created) ?? undefined}
              className="text-sm text-slate-600"
              data-testid="post-time"
            >
              {relativeTime(created, now)}
            </time>
          ) : (
            <span className="text-sm text-slate-600" data-testid="post-time">
              Invalid date
            </span>
          )}
        </div>
      </header>
      <p className="px-4 py-3 text-[15px] leading-relaxed break-words whitespace-pre-line text-slate-800 sm:px-5" data-testid="post-desc">
        {post.desc}
      </p>
      <footer className="flex items-center justify-between gap-3 border-t border-slate-100 px-2 py-1.5 sm:px-3">
        <button
          type="button"
          onClick={onShowLikers}
          className="flex items-center gap-2 rounded-lg px-2.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100"
          aria-label={`${post.likeCount} ${people} this. Show who`}
          aria-haspopup="dialog"
          data-testid="like-count"
        >
          <Users className="h-5 w-5 text-slate-500" aria-hidden="true" />
          <span>{post.likeCount}</span>
        </button>
        <button
          type="button"
          onClick={onToggleLike}
          aria-pressed={post.likedByMe}
          disabled={likeBusy}
          className={`flex min-h-11 items-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold transition-colors disabled:opacity-70 ${
            post.likedByMe ? 'text-blue-700 hover:bg-blue-50' : 'text-slate-700 hover:bg-slate-100'
          }`}
          data-testid="like-toggle"
        >
          <ThumbsUp className={`h-5 w-5 ${post.likedByMe ? 'fill-blue-600 text-blue-700' : ''}`} aria-hidden="true" />
          {post.likedByMe ? 'Liked' : 'Like'}
        </button>
      </footer>
    </article>
  );
}
